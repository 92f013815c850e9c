//! The corpus's known failures (`corpus-known-failures.txt` at the workspace root, read through
//! `relic_testkit::known_failures`): a file listed there that fails is counted and printed as a
//! known failure instead of failing the run; a listed file that passes fails the run until it is
//! taken off the list, so the list only ever shrinks with the fixes.

use relic_testkit::KnownFailure;

/// What a run makes of one file's result.
pub enum Verdict {
    Passed,
    Failed,
    /// Failed, and listed.
    Known(KnownFailure),
    /// Listed, but passed: the list is stale.
    NowPasses(KnownFailure),
}

/// The verdict of `step` (`corpus`, `blender`) on `rel` (a corpus path, or `pair A ↔ B`), which
/// `failed` or not.
pub fn judge(step: &str, rel: &str, failed: bool) -> Verdict {
    let rel = rel.replace('\\', "/");
    let listed = relic_testkit::known_failures().into_iter().find(|k| k.path == rel && k.step == step);
    match (failed, listed) {
        (false, None) => Verdict::Passed,
        (true, None) => Verdict::Failed,
        (true, Some(k)) => Verdict::Known(k),
        (false, Some(k)) => Verdict::NowPasses(k),
    }
}

/// The closing lines of a run of `step`: how many known failures were met, each named.
pub fn summary(step: &str, seen: &[KnownFailure]) -> String {
    let listed = relic_testkit::known_failures().iter().filter(|k| k.step == step).count();
    let mut s =
        format!("{} known failure(s) met of {listed} listed for `{step}` in corpus-known-failures.txt", seen.len());
    for k in seen {
        s.push_str(&format!("\n  known: {} — {} (issue 27 class {})", k.path, k.what, k.class));
    }
    s
}
