(** The axioms the final theorems rest on: [Print Assumptions] must say "Closed under the
    global context" for the checker's soundness and the mex equation. The removing games' hull
    uses Coq's primitive 63-bit integers (type [int] and its operations), which an instance
    theorem lists as the only assumptions (see docs/formal.md). *)
From Grundy Require Import Game Removing Classic.
Print Assumptions check_value.
Print Assumptions grundy_mex.
Print Assumptions grundy_spec.
Print Assumptions TER.
Print Assumptions DNT.
Print Assumptions DC.
From Grundy Require Import Octal.
Print Assumptions check_sequence_sound.
Print Assumptions Octal.
From Grundy Require Import Multiset.
Print Assumptions TERU.
