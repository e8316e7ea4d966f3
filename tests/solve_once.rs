//! Solve once (issue 41): in a build, the certificate of a claim is written from what the
//! check solved (the game as parsed, the memo and the start's table), not solved again.
//! Measured with the process-wide count of positions the memo solvers computed
//! (`grundy::solve::positions_solved`), so this file holds one test: another test running
//! in parallel in the same process would add to the count.

use grundy::check::kind::Context;
use grundy::pipeline::certificates::make;
use grundy::solve::positions_solved;
use std::path::Path;

/// Positions solved by the check and by the certificate of one spec, and the certificate.
fn check_then_certify(path: &str, keep: bool) -> (u64, u64, Vec<u8>) {
    let spec = grundy::kinds::load_file(Path::new(path)).expect("the spec reads");
    let ctx = Context {
        certify: keep,
        ..Context::default()
    };
    let a = positions_solved();
    let checked = spec.body.check(&ctx).expect("the spec checks");
    let b = positions_solved();
    let made = make(&spec, &checked, &ctx).expect("a certificate is made");
    let c = positions_solved();
    (b - a, c - b, made.bytes)
}

#[test]
fn a_build_certifies_what_its_check_solved_without_solving_again() {
    // Tables at the start (Prop 3.3: DNT on every connected graph of at most 7 vertices, the
    // general memo solver, and Example 4.11: TER(P_n), first solved by formula-free level
    // tables before) and of every reachable position (Lemma 5.37, the multiset game).
    for path in [
        "specs/paper000/prop_3_3.yaml",
        "specs/paper000/prop_4_4.yaml",
        "specs/paper000/example_4_11_path_ter.yaml",
        "specs/paper000/lemma_5_37.yaml",
    ] {
        let (check, certify, bytes) = check_then_certify(path, true);
        assert!(check > 0, "{path}: the check solved nothing");
        assert_eq!(
            certify, 0,
            "{path}: the certificate solved {certify} positions again"
        );
        // The wrong variant: a check that keeps nothing leaves the certificate to solve the
        // tables again, and the certificate is the same file either way.
        let (_, again, plain) = check_then_certify(path, false);
        assert!(
            again > 0,
            "{path}: without the kept tables nothing was solved"
        );
        assert_eq!(
            bytes, plain,
            "{path}: the certificate depends on who solved"
        );
    }
}
