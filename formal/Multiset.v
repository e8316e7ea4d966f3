(** * The multiset terminate game TER(U) (paper 000, before Prop 5.14): "the players decrease
    one of the positive elements in U by 1 in each turn.  The game ends when all elements of U
    are less than 2."  A position is the multiset as an ascending list. *)

From Coq Require Import NArith Arith List Lia Bool.
From Grundy Require Import Game.
Import ListNotations.

(** Insertion into an ascending list, and sorting by insertion. *)
Fixpoint insert (x : N) (l : list N) : list N :=
  match l with
  | [] => [x]
  | y :: r => if N.leb x y then x :: l else y :: insert x r
  end.

Definition sort (l : list N) : list N := fold_right insert [] l.

(** The list with its i-th element decreased by 1. *)
Fixpoint dec_at (i : nat) (l : list N) : list N :=
  match i, l with
  | O, x :: r => N.pred x :: r
  | S j, x :: r => x :: dec_at j r
  | _, [] => []
  end.

(** The options: over when every element is below 2; else decrease a positive element. *)
Definition ms_opts (u : list N) : list (list N) :=
  if forallb (fun x => N.ltb x 2) u then []
  else map (fun i => sort (dec_at i u))
           (filter (fun i => N.ltb 0 (nth i u 0%N)) (seq 0 (length u))).

(** The sum of the elements. *)
Definition total (l : list N) : nat := fold_right (fun x s => N.to_nat x + s) 0 l.

Lemma total_insert : forall x l, total (insert x l) = N.to_nat x + total l.
Proof.
  intros x. induction l as [|y r IH]; simpl; [reflexivity|].
  destruct (N.leb x y); simpl; [reflexivity|]. rewrite IH. lia.
Qed.

Lemma total_sort : forall l, total (sort l) = total l.
Proof.
  induction l as [|x r IH]; simpl; [reflexivity|]. rewrite total_insert.
  change (N.to_nat x + total (sort r) = N.to_nat x + total r). rewrite IH. reflexivity.
Qed.

Lemma total_dec_at : forall i l, (0 < nth i l 0)%N -> S (total (dec_at i l)) = total l.
Proof.
  induction i as [|j IH]; intros l H; destruct l as [|x r]; simpl in *; try lia.
  specialize (IH r H). lia.
Qed.

Lemma ms_dec : forall u v, In v (ms_opts u) -> total v < total u.
Proof.
  intros u v H. unfold ms_opts in H. destruct (forallb _ u); [contradiction|].
  apply in_map_iff in H. destruct H as [i [<- Hi]]. apply filter_In in Hi.
  destruct Hi as [_ Hi]. apply N.ltb_lt in Hi. rewrite total_sort.
  rewrite <- (total_dec_at i u Hi). lia.
Qed.

Definition TERU : game := Game (list N) ms_opts total ms_dec.

(** Equality and a hash of positions, for the checker. *)
Fixpoint list_eqb (a b : list N) : bool :=
  match a, b with
  | [], [] => true
  | x :: r, y :: s => N.eqb x y && list_eqb r s
  | _, _ => false
  end.

Lemma list_eqb_ok : forall a b, list_eqb a b = true -> a = b.
Proof.
  induction a as [|x r IH]; intros [|y s] H; simpl in H; try discriminate; [reflexivity|].
  apply andb_true_iff in H. destruct H as [H1 H2]. apply N.eqb_eq in H1.
  rewrite H1, (IH s H2). reflexivity.
Qed.

Definition list_key (l : list N) : positive :=
  N.succ_pos (fold_left (fun h x => N.lxor (N.shiftl h 5) x + N.shiftr h 40)%N l 0%N).
