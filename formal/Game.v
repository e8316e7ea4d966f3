(** * Finite impartial games, their Grundy values, and a checker of nim-value tables.

    Trusted part (docs/formal.md): [game], [mex], [gv] and [grundy].  Everything else in
    this file is proved, and the final theorem [check_value] is what the generated instance
    files use. *)

From Coq Require Import NArith List Lia Bool.
From Coq Require Import FSets.FMapPositive Logic.FinFun.
Import ListNotations.

(** ** Games *)

(** A game: positions, the options of each position (a computable list), and a measure
    that every move strictly decreases, so every play is finite (paper 000 §2.3: "Every game
    must finish in finitely many steps").  The start position is not part of the record: a
    theorem is always about an explicit position. *)
Record game := Game {
  pos : Type;
  opts : pos -> list pos;
  measure : pos -> nat;
  opts_dec : forall p q, In q (opts p) -> measure q < measure p
}.

(** ** mex *)

(** [mem x l]: x occurs in l. *)
Fixpoint mem (x : N) (l : list N) : bool :=
  match l with
  | [] => false
  | y :: t => N.eqb x y || mem x t
  end.

(** The least k >= start, among start .. start + fuel, that is not in l. *)
Fixpoint mex_from (l : list N) (k : N) (fuel : nat) : N :=
  match fuel with
  | O => k
  | S f => if mem k l then mex_from l (N.succ k) f else k
  end.

(** mex(A): the least nonnegative integer not in A (paper 000 §2.3).  The search starts at
    0 and tries |l| + 1 candidates, which is enough: [mex_not_in] and [mex_least] below prove
    that the result is the least integer not in l. *)
Definition mex (l : list N) : N := mex_from l 0 (S (length l)).

(** ** The Grundy value, from the definition nim(p) = mex nim(Opt(p)) *)

(** [gv G fuel p]: the recursion nim(p) = mex (map nim (Opt p)), cut off after [fuel] levels. *)
Fixpoint gv (G : game) (fuel : nat) (p : pos G) : N :=
  match fuel with
  | O => 0%N
  | S f => mex (map (gv G f) (opts G p))
  end.

(** The Grundy (nim-)value: the recursion with fuel measure + 1, which never runs out since
    every move decreases the measure ([grundy_mex] is the defining equation). *)
Definition grundy (G : game) (p : pos G) : N := gv G (S (measure G p)) p.

(** ** Properties of mex *)

Lemma mem_In : forall x l, mem x l = true <-> In x l.
Proof.
  induction l as [|y t IH]; simpl; [split; [discriminate|contradiction]|].
  rewrite orb_true_iff, N.eqb_eq, IH. split; intros [H|H]; auto.
Qed.

Lemma mex_from_spec : forall l fuel k,
  (forall j, (k <= j < mex_from l k fuel)%N -> In j l) /\ (k <= mex_from l k fuel)%N.
Proof.
  intros l fuel. induction fuel as [|f IH]; intros k; simpl.
  - split; [intros j Hj; lia | lia].
  - destruct (mem k l) eqn:E.
    + destruct (IH (N.succ k)) as [H1 H2]. split; [|lia].
      intros j Hj. destruct (N.eq_dec j k) as [->|Hne].
      * apply mem_In; exact E.
      * apply H1; lia.
    + split; [intros j Hj; lia | lia].
Qed.

Lemma mex_from_stop : forall l fuel k,
  mem (mex_from l k fuel) l = false \/ mex_from l k fuel = (k + N.of_nat fuel)%N.
Proof.
  intros l fuel. induction fuel as [|f IH]; intros k; simpl.
  - right; lia.
  - destruct (mem k l) eqn:E; [|left; exact E].
    destruct (IH (N.succ k)) as [H|H]; [left; exact H | right; rewrite H; lia].
Qed.

(** Every integer below mex l is in l. *)
Lemma mex_least : forall l j, (j < mex l)%N -> In j l.
Proof.
  intros l j H. apply (proj1 (mex_from_spec l (S (length l)) 0)). unfold mex in H. lia.
Qed.

(** mex l is not in l (the |l| + 1 candidates cannot all be in l: pigeonhole). *)
Lemma mex_not_in : forall l, ~ In (mex l) l.
Proof.
  intros l Hin. unfold mex in Hin.
  destruct (mex_from_stop l (S (length l)) 0) as [H|H].
  - apply mem_In in Hin. congruence.
  - (* then 0 .. |l| are all in l *)
    assert (Hall : forall j, (j <= N.of_nat (length l))%N -> In j l).
    { intros j Hj. apply (proj1 (mex_from_spec l (S (length l)) 0)). rewrite H. lia. }
    assert (Hinc : incl (map N.of_nat (seq 0 (S (length l)))) l).
    { intros x Hx. apply in_map_iff in Hx. destruct Hx as [m [<- Hm]].
      apply in_seq in Hm. apply Hall. lia. }
    apply NoDup_incl_length in Hinc.
    + rewrite map_length, seq_length in Hinc. lia.
    + apply Injective_map_NoDup; [intros a b Hab; lia | apply seq_NoDup].
Qed.

(** ** The defining equation *)

Lemma gv_fuel : forall G n f1 f2 p,
  f1 <= n -> f2 <= n -> measure G p < f1 -> measure G p < f2 -> gv G f1 p = gv G f2 p.
Proof.
  intros G n. induction n as [|n IH]; intros f1 f2 p H1 H2 H3 H4; [lia|].
  destruct f1 as [|a]; [lia|]. destruct f2 as [|b]; [lia|]. simpl. f_equal.
  apply map_ext_in. intros q Hq. pose proof (opts_dec G p q Hq).
  apply IH; lia.
Qed.

(** nim(p) = mex (nim(Opt p)) (paper 000 §2.3). *)
Theorem grundy_mex : forall G p, grundy G p = mex (map (grundy G) (opts G p)).
Proof.
  intros G p. unfold grundy at 1. simpl. f_equal. apply map_ext_in.
  intros q Hq. pose proof (opts_dec G p q Hq). unfold grundy.
  apply (gv_fuel G (measure G p)); lia.
Qed.

(** A terminal position has value 0; the value is the least one not among the options'
    values, and every smaller value is an option's value. *)
Corollary grundy_terminal : forall G p, opts G p = [] -> grundy G p = 0%N.
Proof. intros G p H. rewrite grundy_mex, H. reflexivity. Qed.

Corollary grundy_spec : forall G p,
  (forall q, In q (opts G p) -> grundy G q <> grundy G p) /\
  (forall j, (j < grundy G p)%N -> exists q, In q (opts G p) /\ grundy G q = j).
Proof.
  intros G p. rewrite grundy_mex. split.
  - intros q Hq Heq. apply (mex_not_in (map (grundy G) (opts G p))).
    rewrite <- Heq. apply in_map. exact Hq.
  - intros j Hj. apply mex_least in Hj. apply in_map_iff in Hj.
    destruct Hj as [q [H1 H2]]. exists q. auto.
Qed.

(** ** The checker of a nim-value table *)

Section Check.
  Variable G : game.
  (** Decidable equality of positions, and a hash into [positive] (any function: it only
      decides which bucket of the map an entry lands in). *)
  Variable eqb : pos G -> pos G -> bool.
  Hypothesis eqb_ok : forall p q, eqb p q = true -> p = q.
  Variable key : pos G -> positive.

  Local Notation entry := (pos G * N)%type.
  Local Notation bucket := (list entry).

  Definition add_entry (m : PositiveMap.t bucket) (e : entry) : PositiveMap.t bucket :=
    let k := key (fst e) in
    PositiveMap.add k (e :: match PositiveMap.find k m with Some b => b | None => [] end) m.

  Definition build (t : list entry) : PositiveMap.t bucket :=
    fold_left add_entry t (PositiveMap.empty _).

  Fixpoint find_in (p : pos G) (b : bucket) : option N :=
    match b with
    | [] => None
    | (q, v) :: r => if eqb p q then Some v else find_in p r
    end.

  Definition lookup (m : PositiveMap.t bucket) (p : pos G) : option N :=
    match PositiveMap.find (key p) m with
    | Some b => find_in p b
    | None => None
    end.

  (** The listed values of a list of positions, or None if one is not listed. *)
  Fixpoint values (m : PositiveMap.t bucket) (l : list (pos G)) : option (list N) :=
    match l with
    | [] => Some []
    | q :: r =>
        match lookup m q, values m r with
        | Some v, Some vs => Some (v :: vs)
        | _, _ => None
        end
    end.

  (** An entry (p, v) is accepted iff every option of p is listed and v is the mex of their
      listed values. *)
  Definition check_entry (m : PositiveMap.t bucket) (e : entry) : bool :=
    match values m (opts G (fst e)) with
    | Some vs => N.eqb (mex vs) (snd e)
    | None => false
    end.

  Definition check (t : list entry) : bool :=
    let m := build t in forallb (check_entry m) t.

  Definition has_entry (t : list entry) (p : pos G) (v : N) : bool :=
    existsb (fun e => eqb (fst e) p && N.eqb (snd e) v) t.

  (** Soundness of the map: whatever is looked up was listed. *)
  Lemma build_sound : forall t k b e,
    PositiveMap.find k (build t) = Some b -> In e b -> In e t.
  Proof.
    intros t. unfold build.
    assert (H : forall l m,
      (forall k b e, PositiveMap.find k m = Some b -> In e b -> In e t) ->
      incl l t ->
      forall k b e, PositiveMap.find k (fold_left add_entry l m) = Some b -> In e b -> In e t).
    { induction l as [|x l IH]; intros m Hm Hl; simpl; [exact Hm|].
      apply IH; [|intros y Hy; apply Hl; right; exact Hy].
      intros k b e Hf Hin. unfold add_entry in Hf.
      destruct (Pos.eq_dec k (key (fst x))) as [->|Hne].
      - rewrite PositiveMap.gss in Hf. injection Hf as <-. destruct Hin as [<-|Hin].
        + apply Hl; left; reflexivity.
        + destruct (PositiveMap.find (key (fst x)) m) as [b0|] eqn:E.
          * exact (Hm _ _ _ E Hin).
          * simpl in Hin. contradiction.
      - rewrite PositiveMap.gso in Hf by exact Hne. exact (Hm _ _ _ Hf Hin). }
    apply H; [|intros x Hx; exact Hx].
    intros k b e Hf. rewrite PositiveMap.gempty in Hf. discriminate.
  Qed.

  Lemma find_in_sound : forall b p v, find_in p b = Some v -> In (p, v) b.
  Proof.
    induction b as [|[q w] r IH]; intros p v H; simpl in H; [discriminate|].
    destruct (eqb p q) eqn:E.
    - apply eqb_ok in E. subst. injection H as <-. left; reflexivity.
    - right. apply IH. exact H.
  Qed.

  Lemma lookup_sound : forall t p v, lookup (build t) p = Some v -> In (p, v) t.
  Proof.
    intros t p v H. unfold lookup in H.
    destruct (PositiveMap.find (key p) (build t)) as [b|] eqn:E; [|discriminate].
    apply (build_sound t (key p) b); [exact E|]. apply find_in_sound. exact H.
  Qed.

  Lemma values_grundy : forall m l vs,
    values m l = Some vs ->
    (forall q w, In q l -> lookup m q = Some w -> grundy G q = w) ->
    vs = map (grundy G) l.
  Proof.
    intros m. induction l as [|q r IH]; intros vs H Hl; simpl in H.
    - injection H as <-. reflexivity.
    - destruct (lookup m q) as [v|] eqn:E1; [|discriminate].
      destruct (values m r) as [ws|] eqn:E2; [|discriminate].
      injection H as <-. simpl. f_equal.
      + symmetry. apply (Hl q v); [left; reflexivity | exact E1].
      + apply IH; [reflexivity|]. intros x w Hx Hw. apply (Hl x w); [right; exact Hx | exact Hw].
  Qed.

  (** The soundness theorem: if the checker accepts a table, every listed value is the
      Grundy value of its position.  Induction on the measure: the options of a listed
      position are listed (closure), have smaller measure, hence their listed values are
      their Grundy values, and the entry's value is the mex of those, which is the Grundy
      value by [grundy_mex]. *)
  Theorem check_sound : forall t, check t = true -> forall p v, In (p, v) t -> grundy G p = v.
  Proof.
    intros t Hc. unfold check in Hc. rewrite forallb_forall in Hc.
    assert (Hm : forall n p v, measure G p < n -> In (p, v) t -> grundy G p = v).
    { induction n as [|n IH]; intros p v Hn Hin; [lia|].
      pose proof (Hc (p, v) Hin) as He. unfold check_entry in He. simpl in He.
      destruct (values (build t) (opts G p)) as [vs|] eqn:E; [|discriminate].
      apply N.eqb_eq in He. subst v.
      rewrite (values_grundy (build t) (opts G p) vs E).
      - apply grundy_mex.
      - intros q w Hq Hw. pose proof (opts_dec G p q Hq).
        apply IH; [lia|]. apply lookup_sound. exact Hw. }
    intros p v Hin. apply (Hm (S (measure G p))); [lia | exact Hin].
  Qed.

  (** What the instance files use: an accepted table that lists (p, v) proves nim(p) = v. *)
  Theorem check_value : forall t p v, check t = true -> has_entry t p v = true -> grundy G p = v.
  Proof.
    intros t p v Hc Hh. unfold has_entry in Hh. apply existsb_exists in Hh.
    destruct Hh as [[q w] [Hin Hq]]. simpl in Hq. apply andb_true_iff in Hq.
    destruct Hq as [H1 H2]. apply eqb_ok in H1. apply N.eqb_eq in H2. subst.
    exact (check_sound t Hc _ _ Hin).
  Qed.
End Check.
