//! Results of the checks that `cargo xtask corpus` runs on each file.
//!
//! Format crates (and the animation and glTF crates) provide functions that return a [`Checks`]
//! list; the corpus tool prints them and counts a file as failed if any check failed.

use std::fmt;

/// How a check ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The property holds.
    Pass,
    /// The property does not hold: a bug in relic or a file outside what relic understands.
    Fail,
    /// Not applicable to this file (says why in the detail).
    Skip,
    /// The file is of a version relic deliberately does not read; the detail is the error
    /// a user sees.
    Refused,
    /// The file needs files beside it that are not there (an M2's `.skin`, `.anim`); the detail
    /// names them. Neither a pass nor a failure.
    Incomplete,
}

/// One named check and its outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// Short name (`parse`, `rewrite`, `ir-round-trip`, `v12-weights`).
    pub name: String,
    /// Outcome.
    pub status: Status,
    /// Figures or the failure message, one line.
    pub detail: String,
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mark = match self.status {
            Status::Pass => "ok",
            Status::Fail => "FAIL",
            Status::Skip => "skip",
            Status::Refused => "refused",
            Status::Incomplete => "incomplete",
        };
        if self.detail.is_empty() {
            write!(f, "{} {mark}", self.name)
        } else {
            write!(f, "{} {mark} ({})", self.name, self.detail)
        }
    }
}

/// The checks run on one file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Checks(pub Vec<Check>);

impl Checks {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records how the `parse` check ended: passed with `describe`'s figures, refused for a
    /// version relic deliberately does not read, incomplete when files beside the model are
    /// missing ([`crate::ReadErrorKind::Incomplete`]), failed for any other error. Returns the parsed
    /// value, `None` when there is nothing to check further.
    pub fn parsed<T>(&mut self, result: Result<T, crate::ReadError>, describe: impl FnOnce(&T) -> String) -> Option<T> {
        match result {
            Ok(value) => {
                self.pass("parse", describe(&value));
                Some(value)
            }
            Err(e) if matches!(e.kind, crate::ReadErrorKind::UnsupportedVersion { .. }) => {
                self.refuse("parse", e.to_string());
                None
            }
            Err(e) if matches!(e.kind, crate::ReadErrorKind::Incomplete { .. }) => {
                self.0.push(Check { name: "parse".into(), status: Status::Incomplete, detail: e.to_string() });
                None
            }
            Err(e) => {
                self.fail("parse", e.to_string());
                None
            }
        }
    }

    /// Records a passed check.
    pub fn pass(&mut self, name: impl Into<String>, detail: impl Into<String>) {
        self.0.push(Check { name: name.into(), status: Status::Pass, detail: detail.into() });
    }

    /// Records a failed check.
    pub fn fail(&mut self, name: impl Into<String>, detail: impl Into<String>) {
        self.0.push(Check { name: name.into(), status: Status::Fail, detail: detail.into() });
    }

    /// Records a check that does not apply.
    pub fn skip(&mut self, name: impl Into<String>, detail: impl Into<String>) {
        self.0.push(Check { name: name.into(), status: Status::Skip, detail: detail.into() });
    }

    /// Records that the file was refused as out of scope.
    pub fn refuse(&mut self, name: impl Into<String>, detail: impl Into<String>) {
        self.0.push(Check { name: name.into(), status: Status::Refused, detail: detail.into() });
    }

    /// True if the file was refused as out of scope (and nothing failed).
    pub fn refused(&self) -> bool {
        self.passed() && self.0.iter().any(|c| c.status == Status::Refused)
    }

    /// True if the file needs files beside it that are not there (and nothing failed).
    pub fn incomplete(&self) -> bool {
        self.passed() && self.0.iter().any(|c| c.status == Status::Incomplete)
    }

    /// Runs `f`: `Ok(detail)` passes, `Err(detail)` fails. Returns whether it passed.
    pub fn run(&mut self, name: impl Into<String>, f: impl FnOnce() -> Result<String, String>) -> bool {
        match f() {
            Ok(detail) => {
                self.pass(name, detail);
                true
            }
            Err(detail) => {
                self.fail(name, detail);
                false
            }
        }
    }

    /// Appends another list.
    pub fn extend(&mut self, other: Checks) {
        self.0.extend(other.0);
    }

    /// True if at least one check was run (a list of skips ran none) and none failed: an empty
    /// list has passed nothing.
    pub fn passed(&self) -> bool {
        self.0.iter().any(|c| c.status != Status::Skip) && self.0.iter().all(|c| c.status != Status::Fail)
    }

    /// The failed checks.
    pub fn failures(&self) -> impl Iterator<Item = &Check> {
        self.0.iter().filter(|c| c.status == Status::Fail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_records_outcomes() {
        let mut c = Checks::new();
        assert!(c.run("a", || Ok("1 thing".into())));
        assert!(c.passed());
        assert!(!c.run("b", || Err("bad".into())));
        c.skip("c", "no animation");
        assert!(!c.passed());
        assert_eq!(c.failures().count(), 1);
        assert_eq!(c.0[0].to_string(), "a ok (1 thing)");
        assert_eq!(c.0[1].to_string(), "b FAIL (bad)");
    }

    #[test]
    fn no_check_run_has_not_passed() {
        let mut c = Checks::new();
        assert!(!c.passed(), "an empty list passed");
        assert!(!c.refused() && !c.incomplete());
        c.skip("a", "not applicable");
        assert!(!c.passed(), "a skip is no check run");
        c.refuse("parse", "version 3");
        assert!(c.passed() && c.refused());
    }
}
