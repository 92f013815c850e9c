//! Timing whole processes (wall clock and the CPU time the system accounts to them) and a memcpy
//! of the same bytes in this process.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One run of a process.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    /// Seconds from its start to its exit, start-up included.
    pub wall: f64,
    /// User + system seconds the system accounted to it and every process it waited for.
    pub cpu: f64,
    /// Whether it exited with one of the statuses the caller accepts.
    pub ok: bool,
}

/// User + system seconds of every child of this process that has been waited for.
#[allow(unsafe_code)]
fn children_cpu() -> f64 {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the whole struct behind the pointer (zeroed before) or fails.
    let ok = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, usage.as_mut_ptr()) } == 0;
    if !ok {
        return 0.0;
    }
    // SAFETY: zero-initialised, then written by getrusage: every field is a plain integer.
    let usage = unsafe { usage.assume_init() };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Runs `command` to its end, its output discarded, and times it; `accept`: the exit statuses
/// that count as done.
pub fn run(command: &mut Command, accept: &[i32]) -> Result<Sample, String> {
    let cpu_before = children_cpu();
    let started = Instant::now();
    let status = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {:?}: {e}", command.get_program()))?;
    let wall = started.elapsed().as_secs_f64();
    let ok = status.code().is_some_and(|c| accept.contains(&c));
    Ok(Sample { wall, cpu: (children_cpu() - cpu_before).max(0.0), ok })
}

/// Seconds one copy of `bytes` into a warm buffer takes: each of 5 rounds copies until 2 ms have
/// passed; the fastest round counts (a round the scheduler interrupted is slower, never faster).
pub fn memcpy(bytes: &[u8]) -> f64 {
    let mut out = vec![0u8; bytes.len()];
    out.copy_from_slice(bytes);
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let started = Instant::now();
        let mut copies = 0u32;
        while started.elapsed() < Duration::from_millis(2) || copies == 0 {
            out.copy_from_slice(std::hint::black_box(bytes));
            std::hint::black_box(&mut out);
            copies += 1;
        }
        best = best.min(started.elapsed().as_secs_f64() / f64::from(copies));
    }
    best
}

/// The middle value (the mean of the two middle ones for an even count); NaN for none.
pub fn median(values: &[f64]) -> f64 {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// The smallest value; NaN for none.
pub fn best(values: &[f64]) -> f64 {
    values.iter().copied().filter(|x| x.is_finite()).fold(f64::NAN, f64::min)
}

/// The system's load averages (1, 5, 15 minutes) as `/proc/loadavg` gives them.
pub fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// `1.20 s`, `1.2 ms`, `45.6 µs`, `31 ns`.
pub fn seconds(s: f64) -> String {
    if !s.is_finite() {
        "—".into()
    } else if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.1} ms", s * 1e3)
    } else if s >= 1e-6 {
        format!("{:.1} µs", s * 1e6)
    } else {
        format!("{:.0} ns", s * 1e9)
    }
}
