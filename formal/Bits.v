(** * Vertex sets and pin rows as bitmasks in [N] (bit v = vertex or pin v), and the
    counting lemma that makes "a move selects (or knocks down) something" decrease a measure. *)

From Coq Require Import NArith Arith List Lia Bool.
Import ListNotations.

(** The number of members of s among 0 .. n-1. *)
Fixpoint count_below (n : nat) (s : N) : nat :=
  match n with
  | O => O
  | S k => (if N.testbit s (N.of_nat k) then 1 else 0) + count_below k s
  end.

Lemma count_below_le : forall n s, count_below n s <= n.
Proof. induction n; intros s; simpl; [lia|]. destruct (N.testbit s (N.of_nat n)); specialize (IHn s); lia. Qed.

(** If q ⊆ s below n, and some i < n is in s but not in q, then q has fewer members below n. *)
Lemma count_below_strict : forall n q s,
  (forall w, w < n -> N.testbit q (N.of_nat w) = true -> N.testbit s (N.of_nat w) = true) ->
  (exists i, i < n /\ N.testbit s (N.of_nat i) = true /\ N.testbit q (N.of_nat i) = false) ->
  count_below n q < count_below n s.
Proof.
  induction n as [|n IH]; intros q s Hsub [i [Hi [Hs Hq]]]; [lia|]. simpl.
  assert (Hle : count_below n q <= count_below n s).
  { clear IH Hi Hs Hq i. induction n as [|n IHn]; simpl; [lia|].
    assert (IH' : count_below n q <= count_below n s) by (apply IHn; intros w Hw; apply Hsub; lia).
    specialize (Hsub n ltac:(lia)).
    destruct (N.testbit q (N.of_nat n)), (N.testbit s (N.of_nat n)); try lia;
    specialize (Hsub eq_refl); discriminate. }
  destruct (Nat.eq_dec i n) as [->|Hne].
  - rewrite Hs, Hq. lia.
  - assert (Hlt : count_below n q < count_below n s).
    { apply IH; [intros w Hw; apply Hsub; lia | exists i; repeat split; auto; lia]. }
    pose proof (Hsub n ltac:(lia)) as Hn.
    destruct (N.testbit q (N.of_nat n)), (N.testbit s (N.of_nat n)); try lia;
    specialize (Hn eq_refl); discriminate.
Qed.

(** The set {v} and the set of a list of vertices. *)
Definition single (v : nat) : N := N.setbit 0 (N.of_nat v).
Definition mask_of (l : list nat) : N := fold_right (fun v m => N.setbit m (N.of_nat v)) 0%N l.
Definition mem (s : N) (v : nat) : bool := N.testbit s (N.of_nat v).
(** {0, .., n-1}. *)
Definition full (n : nat) : N := mask_of (seq 0 n).
