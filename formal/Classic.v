(** * Dawson's Chess, nimbers, disjoint and ordinal sums (paper 000 before Prop 5.19, §2.3,
    before Prop 5.26), and the equality and hash functions of positions that the checker
    needs. *)

From Coq Require Import NArith Arith List Lia Bool.
From Grundy Require Import Game Bits.
Import ListNotations.

(** ** Dawson's Chess DC(n) (paper 000, before Prop 5.19)

    n pins in a row, 0 .. n-1; a position is the set of standing pins.  A move knocks down a
    standing pin i and its standing neighbours i-1 and i+1 (the octal game 0.137). *)

(** Pin i and its neighbours in the row. *)
Definition dc_hit (pins i : nat) : N :=
  N.setbit (N.lor (if Nat.ltb 0 i then single (i - 1) else 0%N)
                  (if Nat.ltb (i + 1) pins then single (i + 1) else 0%N)) (N.of_nat i).

Definition dc_opts (pins : nat) (s : N) : list N :=
  map (fun i => N.ldiff s (dc_hit pins i)) (filter (fun i => mem s i) (seq 0 pins)).

(** The number of standing pins. *)
Definition dc_measure (pins : nat) (s : N) : nat := count_below pins s.

Lemma dc_dec : forall pins p q, In q (dc_opts pins p) -> dc_measure pins q < dc_measure pins p.
Proof.
  intros pins p q H. unfold dc_opts in H. apply in_map_iff in H.
  destruct H as [i [<- Hi]]. apply filter_In in Hi. destruct Hi as [Hi Hm].
  apply in_seq in Hi. unfold dc_measure. apply count_below_strict.
  - intros w _ Hw. rewrite N.ldiff_spec in Hw. apply andb_true_iff in Hw. apply Hw.
  - exists i. repeat split; [lia | exact Hm |].
    rewrite N.ldiff_spec. unfold dc_hit. rewrite N.setbit_eq. apply andb_false_r.
Qed.

Definition DC (pins : nat) : game := Game N (dc_opts pins) (dc_measure pins) (dc_dec pins).

(** ** The nimber *k: a heap of k; a move leaves a smaller heap. *)

Definition nim_opts (k : N) : list N := map N.of_nat (seq 0 (N.to_nat k)).

Lemma nim_dec : forall p q, In q (nim_opts p) -> N.to_nat q < N.to_nat p.
Proof.
  intros p q H. unfold nim_opts in H. apply in_map_iff in H. destruct H as [i [<- Hi]].
  apply in_seq in Hi. rewrite Nnat.Nat2N.id. lia.
Qed.

Definition Nimber : game := Game N nim_opts N.to_nat nim_dec.

(** ** The disjoint sum G + H: a move in exactly one component (paper 000 §2.3). *)

Definition sum_opts (G H : game) (x : pos G * pos H) : list (pos G * pos H) :=
  map (fun p' => (p', snd x)) (opts G (fst x)) ++ map (fun q' => (fst x, q')) (opts H (snd x)).

Lemma sum_dec : forall G H x y, In y (sum_opts G H x) ->
  measure G (fst y) + measure H (snd y) < measure G (fst x) + measure H (snd x).
Proof.
  intros G H [p q] y Hy. unfold sum_opts in Hy. simpl in Hy. apply in_app_or in Hy.
  destruct Hy as [Hy|Hy]; apply in_map_iff in Hy; destruct Hy as [z [<- Hz]]; simpl;
  pose proof (opts_dec _ _ _ Hz); lia.
Qed.

Definition Sum (G H : game) : game :=
  Game (pos G * pos H) (sum_opts G H) (fun x => measure G (fst x) + measure H (snd x))
       (sum_dec G H).

(** ** The ordinal sum G : H (paper 000, before Prop 5.26)

    Opt(p, q) = Opt(p) × {q} if p ≠ p0, and (Opt(p0) × {q}) ∪ ({p0} × Opt(q)) if p = p0,
    where p0 is the start of G; [eqb] decides equality of positions of G. *)

Definition ordinal_opts (G H : game) (eqb : pos G -> pos G -> bool) (p0 : pos G)
    (x : pos G * pos H) : list (pos G * pos H) :=
  map (fun p' => (p', snd x)) (opts G (fst x)) ++
  (if eqb (fst x) p0 then map (fun q' => (fst x, q')) (opts H (snd x)) else []).

Lemma ordinal_dec : forall G H eqb p0 x y, In y (ordinal_opts G H eqb p0 x) ->
  measure G (fst y) + measure H (snd y) < measure G (fst x) + measure H (snd x).
Proof.
  intros G H eqb p0 [p q] y Hy. unfold ordinal_opts in Hy. simpl in Hy. apply in_app_or in Hy.
  destruct Hy as [Hy|Hy]; [|destruct (eqb p p0); [|contradiction]];
  apply in_map_iff in Hy; destruct Hy as [z [<- Hz]]; simpl;
  pose proof (opts_dec _ _ _ Hz); lia.
Qed.

Definition Ordinal (G H : game) (eqb : pos G -> pos G -> bool) (p0 : pos G) : game :=
  Game (pos G * pos H) (ordinal_opts G H eqb p0)
       (fun x => measure G (fst x) + measure H (snd x)) (ordinal_dec G H eqb p0).

(** ** Equality and hashes of positions (for the checker; the hash only picks a bucket) *)

Lemma N_eqb_ok : forall p q, N.eqb p q = true -> p = q.
Proof. intros p q H. apply N.eqb_eq. exact H. Qed.

Definition pair_eqb {A B} (ea : A -> A -> bool) (eb : B -> B -> bool) (x y : A * B) : bool :=
  ea (fst x) (fst y) && eb (snd x) (snd y).

Lemma pair_eqb_ok : forall A B (ea : A -> A -> bool) (eb : B -> B -> bool),
  (forall a a', ea a a' = true -> a = a') -> (forall b b', eb b b' = true -> b = b') ->
  forall x y, pair_eqb ea eb x y = true -> x = y.
Proof.
  intros A B ea eb Ha Hb [a b] [a' b'] H. unfold pair_eqb in H. simpl in H.
  apply andb_true_iff in H. destruct H as [H1 H2]. rewrite (Ha _ _ H1), (Hb _ _ H2).
  reflexivity.
Qed.

Definition N_key (p : N) : positive := N.succ_pos p.

Definition N2_key (x : N * N) : positive := N.succ_pos (N.lxor (N.shiftl (fst x) 20) (snd x)).
