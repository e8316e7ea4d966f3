(** * Octal games by their code, and the checker of a nim-sequence (paper 000 before
    Prop 5.23: Dawson's Chess is the octal game 0.137).

    A position is a list of heaps.  The code d_1 d_2 ... gives, for each k, which moves remove
    k tokens from one heap: bit 1 of d_k (value 1) takes a whole heap of exactly k, bit 2
    (value 2) leaves one nonempty heap, bit 4 (value 4) leaves two nonempty heaps. *)

From Coq Require Import NArith Arith List Lia Bool.
From Grundy Require Import Game.
Import ListNotations.

(** ** The game *)

(** The results of removing k tokens from a heap of h under digit d: a list of heap lists. *)
Definition digit_moves (k d h : N) : list (list N) :=
  (if N.testbit d 0 && N.eqb h k then [[]] else []) ++
  (if N.testbit d 1 && N.ltb k h then [[(h - k)%N]] else []) ++
  (if N.testbit d 2 && N.ltb (k + 1)%N h
   then map (fun a => [N.of_nat a; (h - k - N.of_nat a)%N]) (seq 1 (N.to_nat (h - k - 1)%N))
   else []).

(** Every move on a heap h, digit by digit (the code's digits are d_1, d_2, ...). *)
Fixpoint heap_moves_from (k : N) (code : list N) (h : N) : list (list N) :=
  match code with
  | [] => []
  | d :: ds => digit_moves k d h ++ heap_moves_from (N.succ k) ds h
  end.

Definition heap_moves (code : list N) (h : N) : list (list N) := heap_moves_from 1 code h.

(** A move in exactly one heap: that heap replaced by the heaps the move leaves. *)
Fixpoint octal_opts (code : list N) (l : list N) : list (list N) :=
  match l with
  | [] => []
  | h :: t => map (fun r => r ++ t) (heap_moves code h) ++ map (cons h) (octal_opts code t)
  end.

(** The number of tokens. *)
Definition tokens (l : list N) : nat := fold_right (fun h s => N.to_nat h + s) 0 l.

Lemma tokens_app : forall a b, tokens (a ++ b) = tokens a + tokens b.
Proof. induction a; intros b; simpl; [reflexivity|]. rewrite IHa. lia. Qed.

Lemma digit_moves_dec : forall k d h r, (1 <= k)%N -> In r (digit_moves k d h) ->
  tokens r < N.to_nat h.
Proof.
  intros k d h r Hk H. unfold digit_moves in H.
  apply in_app_or in H. destruct H as [H|H].
  { destruct (N.testbit d 0 && N.eqb h k) eqn:E; [|contradiction].
    destruct H as [<-|[]]. apply andb_true_iff in E. destruct E as [_ E].
    apply N.eqb_eq in E. simpl. lia. }
  apply in_app_or in H. destruct H as [H|H].
  { destruct (N.testbit d 1 && N.ltb k h) eqn:E; [|contradiction].
    destruct H as [<-|[]]. apply andb_true_iff in E. destruct E as [_ E].
    apply N.ltb_lt in E. simpl. lia. }
  destruct (N.testbit d 2 && N.ltb (k + 1) h) eqn:E; [|contradiction].
  apply andb_true_iff in E. destruct E as [_ E]. apply N.ltb_lt in E.
  apply in_map_iff in H. destruct H as [a [<- Ha]]. apply in_seq in Ha. simpl. lia.
Qed.

Lemma heap_moves_from_dec : forall code k h r, (1 <= k)%N -> In r (heap_moves_from k code h) ->
  tokens r < N.to_nat h.
Proof.
  induction code as [|d ds IH]; intros k h r Hk H; simpl in H; [contradiction|].
  apply in_app_or in H. destruct H as [H|H].
  - exact (digit_moves_dec k d h r Hk H).
  - apply (IH (N.succ k)); [lia | exact H].
Qed.

Lemma heap_moves_dec : forall code h r, In r (heap_moves code h) -> tokens r < N.to_nat h.
Proof. intros code h r H. apply (heap_moves_from_dec code 1 h r); [lia | exact H]. Qed.

Lemma octal_dec : forall code l l', In l' (octal_opts code l) -> tokens l' < tokens l.
Proof.
  intros code. induction l as [|h t IH]; intros l' H; simpl in H; [contradiction|].
  apply in_app_or in H. destruct H as [H|H]; apply in_map_iff in H; destruct H as [x [<- Hx]].
  - rewrite tokens_app. simpl. pose proof (heap_moves_dec code h x Hx). lia.
  - simpl. pose proof (IH x Hx). lia.
Qed.

Definition Octal (code : list N) : game := Game (list N) (octal_opts code) tokens (octal_dec code).

(** ** XOR and the comparison by the highest differing bit *)

Lemma lt_highest_bit : forall k y x,
  (forall j, (k < j)%N -> N.testbit y j = N.testbit x j) ->
  N.testbit y k = false -> N.testbit x k = true -> (y < x)%N.
Proof.
  induction k as [|k IH] using N.peano_ind; intros y x Hj Hy Hx.
  - assert (Hd : N.div2 y = N.div2 x).
    { apply N.bits_inj. intros j. rewrite <- !N.testbit_succ_r_div2 by lia. apply Hj. lia. }
    rewrite N.bit0_odd in Hy, Hx.
    rewrite (N.div2_odd y), (N.div2_odd x), Hy, Hx, Hd. simpl. lia.
  - rewrite N.testbit_succ_r_div2 in Hy, Hx by lia.
    assert (H : (N.div2 y < N.div2 x)%N).
    { apply (IH (N.div2 y) (N.div2 x)); [|exact Hy|exact Hx].
      intros j Hjk. rewrite <- !N.testbit_succ_r_div2 by lia. apply Hj. lia. }
    rewrite (N.div2_odd y), (N.div2_odd x).
    destruct (N.odd y), (N.odd x); cbn [N.b2n]; lia.
Qed.

Lemma lxor_cancel_r : forall a b c, N.lxor a c = N.lxor b c -> a = b.
Proof.
  intros a b c H. rewrite <- (N.lxor_0_r a), <- (N.lxor_0_r b), <- (N.lxor_nilpotent c),
    <- !N.lxor_assoc, H. reflexivity.
Qed.

Lemma lxor_cancel_l : forall a b c, N.lxor c a = N.lxor c b -> a = b.
Proof. intros a b c H. apply (lxor_cancel_r a b c). rewrite !(N.lxor_comm _ c). exact H. Qed.

(** If c < a ⊕ b then c ⊕ b < a or c ⊕ a < b (the heart of the Sprague–Grundy theorem). *)
Lemma lt_lxor : forall a b c, (c < N.lxor a b)%N ->
  (N.lxor c b < a)%N \/ (N.lxor c a < b)%N.
Proof.
  intros a b c Hc. set (x := N.lxor a b) in *.
  set (d := N.lxor c x).
  assert (Hd : d <> 0%N).
  { intros H0. apply N.lxor_eq in H0. lia. }
  set (k := N.log2 d).
  assert (Hk : N.testbit d k = true) by (apply N.bit_log2; exact Hd).
  assert (Habove : forall j, (k < j)%N -> N.testbit c j = N.testbit x j).
  { intros j Hj. pose proof (N.bits_above_log2 d j Hj) as H. unfold d in H.
    rewrite N.lxor_spec in H. destruct (N.testbit c j), (N.testbit x j); auto. }
  unfold d in Hk. rewrite N.lxor_spec in Hk.
  assert (Hxk : N.testbit x k = true /\ N.testbit c k = false).
  { destruct (N.testbit x k) eqn:E1, (N.testbit c k) eqn:E2; simpl in Hk; try discriminate;
    [split; reflexivity|].
    exfalso. assert (x < c)%N.
    { apply (lt_highest_bit k); [|exact E1|exact E2]. intros j Hj. symmetry. auto. }
    lia. }
  destruct Hxk as [Hxk Hck]. unfold x in Hxk, Habove. rewrite N.lxor_spec in Hxk.
  destruct (N.testbit a k) eqn:Ea, (N.testbit b k) eqn:Eb; simpl in Hxk; try discriminate.
  - left. apply (lt_highest_bit k).
    + intros j Hj. rewrite N.lxor_spec, Habove by exact Hj. rewrite N.lxor_spec.
      destruct (N.testbit a j), (N.testbit b j); reflexivity.
    + rewrite N.lxor_spec, Hck, Eb. reflexivity.
    + exact Ea.
  - right. apply (lt_highest_bit k).
    + intros j Hj. rewrite N.lxor_spec, Habove by exact Hj. rewrite N.lxor_spec.
      destruct (N.testbit a j), (N.testbit b j); reflexivity.
    + rewrite N.lxor_spec, Hck, Ea. reflexivity.
    + exact Eb.
Qed.

(** ** The checker of a nim-sequence *)

Section Sequence.
  Variable code : list N.
  (** The claimed values G(0), G(1), ..., G(L - 1). *)
  Variable gs : list N.

  Definition G (h : N) : N := nth (N.to_nat h) gs 0%N.

  (** The XOR of the claimed values of the heaps. *)
  Definition xv (l : list N) : N := fold_right (fun h x => N.lxor (G h) x) 0%N l.

  (** Each G(n) is the mex of the values (the XOR of the claimed values of the heaps left) of
      the moves from a heap of n. *)
  Definition check_sequence : bool :=
    forallb (fun n => N.eqb (mex (map xv (heap_moves code (N.of_nat n)))) (G (N.of_nat n)))
            (seq 0 (length gs)).

  Lemma xv_app : forall a b, xv (a ++ b) = N.lxor (xv a) (xv b).
  Proof.
    induction a as [|h t IH]; intros b; [reflexivity|].
    change (N.lxor (G h) (xv (t ++ b)) = N.lxor (N.lxor (G h) (xv t)) (xv b)).
    rewrite IH, N.lxor_assoc. reflexivity.
  Qed.

  Lemma mex_eq : forall l x, ~ In x l -> (forall c, (c < x)%N -> In c l) -> mex l = x.
  Proof.
    intros l x H1 H2. destruct (N.lt_trichotomy (mex l) x) as [H|[H|H]].
    - exfalso. apply (mex_not_in l). apply H2. exact H.
    - exact H.
    - exfalso. apply H1. apply mex_least. exact H.
  Qed.

  Hypothesis Hcheck : check_sequence = true.

  Lemma G_mex : forall h, (N.to_nat h < length gs) ->
    G h = mex (map xv (heap_moves code h)).
  Proof.
    intros h Hh. unfold check_sequence in Hcheck. rewrite forallb_forall in Hcheck.
    specialize (Hcheck (N.to_nat h)). rewrite Nnat.N2Nat.id in Hcheck.
    symmetry. apply N.eqb_eq. apply Hcheck. apply in_seq. lia.
  Qed.

  Definition small (l : list N) : Prop := forall h, In h l -> N.to_nat h < length gs.

  Lemma small_opts : forall l l', small l -> In l' (octal_opts code l) -> small l'.
  Proof.
    induction l as [|h t IH]; intros l' Hs H; simpl in H; [contradiction|].
    apply in_app_or in H. destruct H as [H|H]; apply in_map_iff in H; destruct H as [x [<- Hx]].
    - intros y Hy. apply in_app_or in Hy. destruct Hy as [Hy|Hy].
      + pose proof (heap_moves_dec code h x Hx).
        assert (N.to_nat y <= tokens x).
        { clear -Hy. induction x as [|z r IHr]; simpl in *; [contradiction|].
          destruct Hy as [<-|Hy]; [lia|]. pose proof (IHr Hy). lia. }
        pose proof (Hs h (or_introl eq_refl)). lia.
      + apply Hs. right. exact Hy.
    - intros y [<-|Hy]; [apply Hs; left; reflexivity|].
      apply (IH x); [intros z Hz; apply Hs; right; exact Hz | exact Hx | exact Hy].
  Qed.

  (** No option has the XOR of the position's values. *)
  Lemma xv_not_option : forall l, small l -> ~ In (xv l) (map xv (octal_opts code l)).
  Proof.
    induction l as [|h t IH]; intros Hs H; simpl in H; [contradiction|].
    rewrite map_app, in_app_iff in H. destruct H as [H|H]; rewrite map_map in H;
      apply in_map_iff in H; destruct H as [x [Hx Hin]].
    - rewrite xv_app in Hx. apply lxor_cancel_r in Hx.
      apply (mex_not_in (map xv (heap_moves code h))).
      rewrite <- G_mex by (apply Hs; left; reflexivity). rewrite <- Hx.
      apply in_map. exact Hin.
    - simpl in Hx. apply lxor_cancel_l in Hx. apply (IH (fun y Hy => Hs y (or_intror Hy))).
      rewrite <- Hx. apply in_map. exact Hin.
  Qed.

  (** Every smaller value is an option's. *)
  Lemma xv_options_below : forall l c, small l -> (c < xv l)%N ->
    In c (map xv (octal_opts code l)).
  Proof.
    induction l as [|h t IH]; intros c Hs Hc; simpl in Hc; [lia|].
    simpl. rewrite map_app, in_app_iff, !map_map.
    destruct (lt_lxor (G h) (xv t) c Hc) as [H|H].
    - left. rewrite G_mex in H by (apply Hs; left; reflexivity).
      apply mex_least in H. apply in_map_iff in H. destruct H as [r [Hr Hin]].
      apply in_map_iff. exists r. split; [|exact Hin].
      rewrite xv_app, Hr, N.lxor_assoc, N.lxor_nilpotent, N.lxor_0_r. reflexivity.
    - right. apply IH in H; [|intros y Hy; apply Hs; right; exact Hy].
      apply in_map_iff in H. destruct H as [o [Ho Hin]].
      apply in_map_iff. exists o. split; [|exact Hin].
      change (N.lxor (G h) (xv o) = c).
      rewrite Ho, (N.lxor_comm c (G h)), <- N.lxor_assoc, N.lxor_nilpotent, N.lxor_0_l.
      reflexivity.
  Qed.

  (** The Sprague–Grundy value of a position whose heaps are all below L is the XOR of the
      claimed values of its heaps. *)
  Theorem octal_grundy_xv : forall l, small l -> grundy (Octal code) l = xv l.
  Proof.
    assert (H : forall n l, tokens l < n -> small l -> grundy (Octal code) l = xv l).
    { induction n as [|n IHn]; intros l Hn Hs; [lia|].
      rewrite grundy_mex. simpl.
      rewrite (map_ext_in _ xv).
      - apply mex_eq; [apply xv_not_option; exact Hs|].
        intros c Hc. apply xv_options_below; assumption.
      - intros l' Hl'. pose proof (octal_dec code l l' Hl').
        apply IHn; [lia | exact (small_opts l l' Hs Hl')]. }
    intros l Hs. apply (H (S (tokens l))); [lia | exact Hs].
  Qed.

  (** The soundness theorem: if the checker accepts, G(n) is the Grundy value of a single
      heap of n, for every n < L. *)
  Theorem check_sequence_sound : forall n, (N.to_nat n < length gs) ->
    grundy (Octal code) [n] = nth (N.to_nat n) gs 0%N.
  Proof.
    intros n Hn. rewrite octal_grundy_xv.
    - simpl. rewrite N.lxor_0_r. reflexivity.
    - intros h [<-|[]]. exact Hn.
  Qed.
End Sequence.
