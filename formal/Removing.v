(** * The convex-hull removing games TER(G) and DNT(G) on a graph (paper 000 §2.5 and §3).

    A graph is given by its number of vertices n (vertices 0 .. n-1) and its adjacency lists.
    A position is the set P of selected vertices, a bitmask in [N]. *)

From Coq Require Import NArith ZArith Arith List Lia Bool Uint63.
From Grundy Require Import Game Bits.
Import ListNotations.

Record graph := Graph {
  order : nat;             (** n: the vertices are 0 .. n-1 *)
  adj : list (list nat)    (** adj[v]: the neighbours of v *)
}.

Definition nbrs (g : graph) (v : nat) : list nat := nth v (adj g) [].

(** ** Distances by breadth-first search *)

(** The neighbours of the members of S. *)
Definition expand (g : graph) (S : N) : N :=
  fold_left (fun m v => if mem S v then N.lor m (mask_of (nbrs g v)) else m)
            (seq 0 (order g)) 0%N.

(** Breadth-first search: the layers of vertices at distance 0, 1, 2, ... (each layer the
    neighbours of the previous one not seen before). *)
Fixpoint layers (g : graph) (fuel : nat) (frontier seen : N) : list N :=
  match fuel with
  | O => []
  | S f => frontier ::
      (let next := N.ldiff (expand g frontier) seen in layers g f next (N.lor seen next))
  end.

(** n layers from s: every distance in a graph of n vertices is below n. *)
Definition bfs (g : graph) (s : nat) : list N := layers g (order g) (single s) (single s).

(** The index of the first layer that contains w: the distance, or None (unreachable). *)
Fixpoint layer_index (w : nat) (ls : list N) (k : nat) : option nat :=
  match ls with
  | [] => None
  | l :: r => if mem l w then Some k else layer_index w r (S k)
  end.

(** The distance table d(u, w), by breadth-first search from every vertex u. *)
Definition distances (g : graph) : list (list (option nat)) :=
  map (fun u => let L := bfs g u in map (fun w => layer_index w L 0) (seq 0 (order g)))
      (seq 0 (order g)).

Definition dist (D : list (list (option nat))) (u v : nat) : option nat :=
  nth v (nth u D []) None.

(** ** Geodesic intervals and the convex hull *)

(** I[u, v] = { w : d(u, w) + d(w, v) = d(u, v) }, the vertices on the geodesics (shortest
    paths) between u and v; {u, v} when there is no u–v path. *)
Definition interval (D : list (list (option nat))) (n u v : nat) : N :=
  match dist D u v with
  | None => N.lor (single u) (single v)
  | Some duv =>
      mask_of (filter (fun w => match dist D u w, dist D w v with
                                | Some a, Some b => Nat.eqb (a + b) duv
                                | _, _ => false
                                end) (seq 0 n))
  end.

(** The n × n table of intervals, I[u][v]. *)
Definition intervals (g : graph) : list (list N) :=
  let D := distances g in
  map (fun u => map (fun v => interval D (order g) u v) (seq 0 (order g))) (seq 0 (order g)).

(** The hull is computed with Coq's primitive 63-bit integers (kernel machine integers,
    [Uint63]: [lor], [land], [lsl], [lsr], [eqb], [add], [sub]) as vertex sets: bit v = vertex
    v, so a graph has at most 62 vertices ([graph_ok]).  [to_int] converts a set. *)
Definition to_int (x : N) : int := Uint63.of_Z (Z.of_N x).

(** v ∈ S (bit v of S). *)
Definition member (S v : int) : bool := Uint63.eqb (Uint63.land (Uint63.lsr S v) 1) 1.

(** The union of the row's intervals I[u][v] over the members v of S. *)
Fixpoint row_union (row : list int) (S : int) (v : int) (acc : int) : int :=
  match row with
  | [] => acc
  | x :: r => row_union r S (Uint63.add v 1) (if member S v then Uint63.lor acc x else acc)
  end.

Fixpoint rows_union (rows : list (list int)) (S : int) (u : int) (acc : int) : int :=
  match rows with
  | [] => acc
  | row :: rs =>
      rows_union rs S (Uint63.add u 1) (if member S u then row_union row S 0 acc else acc)
  end.

(** One closing step: S ∪ ⋃ { I[u, v] : u, v ∈ S }. *)
Definition step (I : list (list int)) (S : int) : int := rows_union I S 0 S.

(** [S] = V, by repeating the step: true as soon as the set is V, false at a fixed point
    below V.  n + 1 rounds suffice for S ⊆ V (every round that is not the last adds a vertex
    of V), so the last clause is never reached for such S.  This is "S generates"
    (paper 000 §2.5), [S] being the least superset of S closed under intervals: the fixed
    point of [step] above S. *)
Fixpoint reaches (I : list (list int)) (V : int) (fuel : nat) (S : int) : bool :=
  match fuel with
  | O => Uint63.eqb S V
  | Datatypes.S f =>
      if Uint63.eqb S V then true
      else let S' := step I S in if Uint63.eqb S' S then false else reaches I V f S'
  end.

Definition generates (n : nat) (I : list (list int)) (S : int) : bool :=
  reaches I (to_int (full n)) (Datatypes.S n) S.

(** P is terminating iff [V \ P] ≠ V (paper 000 §2.5). *)
Definition terminating (n : nat) (I : list (list int)) (P : N) : bool :=
  negb (generates n I (to_int (N.ldiff (full n) P))).

(** ** The games (paper 000 §3) *)

(** The sets P ∪ {v} for the unselected vertices v. *)
Definition additions (n : nat) (P : N) : list N :=
  map (fun v => N.setbit P (N.of_nat v)) (filter (fun v => negb (mem P v)) (seq 0 n)).

(** TER: from a nonterminating P, select any unselected vertex; a terminating P is over.
    DNT: a move must keep the set nonterminating (and a terminating set has no move: it is
    not a position of DNT). *)
Definition removing_opts (dnt : bool) (n : nat) (I : list (list int)) (P : N) : list N :=
  if terminating n I P then []
  else if dnt then filter (fun Q => negb (terminating n I Q)) (additions n P)
  else additions n P.

(** The number of unselected vertices. *)
Definition removing_measure (n : nat) (P : N) : nat := n - count_below n P.

Lemma additions_dec : forall n P Q, In Q (additions n P) ->
  removing_measure n Q < removing_measure n P.
Proof.
  intros n P Q H. unfold additions in H. apply in_map_iff in H.
  destruct H as [v [<- Hv]]. apply filter_In in Hv. destruct Hv as [Hv Hm].
  apply in_seq in Hv. unfold mem in Hm. apply negb_true_iff in Hm.
  unfold removing_measure.
  assert (count_below n P < count_below n (N.setbit P (N.of_nat v))).
  { apply count_below_strict.
    - intros w _ Hw. rewrite N.setbit_iff. right. exact Hw.
    - exists v. repeat split; [lia | apply N.setbit_eq | exact Hm]. }
  pose proof (count_below_le n (N.setbit P (N.of_nat v))). lia.
Qed.

Lemma removing_dec : forall dnt n I P Q, In Q (removing_opts dnt n I P) ->
  removing_measure n Q < removing_measure n P.
Proof.
  intros dnt n I P Q H. unfold removing_opts in H.
  destruct (terminating n I P); [contradiction|].
  destruct dnt; [apply filter_In in H; destruct H as [H _]|]; apply additions_dec; exact H.
Qed.

Definition removing (dnt : bool) (n : nat) (I : list (list int)) : game :=
  Game N (removing_opts dnt n I) (removing_measure n) (removing_dec dnt n I).

(** The interval table as machine integers. *)
Definition intervals_int (g : graph) : list (list int) := map (map to_int) (intervals g).

Definition TER (g : graph) : game := removing false (order g) (intervals_int g).
Definition DNT (g : graph) : game := removing true (order g) (intervals_int g).

(** Well-formedness of a graph, checked by computation in the instance files: at most 62
    vertices (the width of the machine integers), n adjacency lists, neighbours among the
    vertices, no loops, symmetric, no repeated neighbour (an undirected simple graph). *)
Definition graph_ok (g : graph) : bool :=
  let n := order g in
  Nat.leb n 62 && Nat.eqb (length (adj g)) n &&
  forallb (fun v =>
    let l := nbrs g v in
    forallb (fun w => Nat.ltb w n && negb (Nat.eqb w v) &&
                      existsb (Nat.eqb v) (nbrs g w)) l &&
    (fix nodup (l : list nat) := match l with
                                 | [] => true
                                 | x :: r => negb (existsb (Nat.eqb x) r) && nodup r
                                 end) l)
    (seq 0 n).
