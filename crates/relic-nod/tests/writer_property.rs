//! The writer property on generated models (`relic_testkit::models`): a valid model the NOD
//! writer accepts re-reads into a valid model, and each of its animations the NAD writer accepts
//! re-reads onto that NOD's skeleton; a refusal is a typed error naming a limit of the format,
//! never `InvalidModel`; a model with one NaN or ±∞ is refused as invalid.

#![allow(clippy::unwrap_used, clippy::panic)]

use relic_core::{WriteError, WriteOptions};
use relic_testkit::Rng;
use relic_testkit::models::{check_writer, poison, valid_model};

#[test]
fn nod_writes_what_it_reads_back() {
    let report = check_writer(
        0x70D,
        300,
        |m| relic_nod::write_model(m, &WriteOptions::default()).map(|c| c.value),
        relic_nod::read_model,
    );
    println!("NOD: {report:?}");
    assert!(report.failures.is_empty(), "{} failures:\n{}", report.failures.len(), report.failures.join("\n"));
    assert_eq!(report.poisoned, 300);
    assert!(report.written >= 200, "only {} of 300 written: {:?}", report.written, report.refusals);
}

/// NAD: every animation of every generated model that `write_animation` accepts reads back with
/// `read_animation` onto the skeleton `write_model` wrote; poisoned models are refused as invalid.
#[test]
fn nad_writes_what_it_reads_back() {
    let mut rng = Rng::new(0x0AD);
    let (mut written, mut refused, mut failures) = (0, 0, Vec::new());
    for i in 0..300 {
        let model = valid_model(&mut rng);
        let Ok(nod) = relic_nod::write_model(&model, &WriteOptions::default()) else { continue };
        let skeleton = relic_nod::read_model(&nod.value).unwrap();
        for a in 0..model.animations.len() {
            match relic_nod::write_animation(&model, a, &Default::default()) {
                Ok(out) => match relic_nod::read_animation(&skeleton, &out.value, "x", &Default::default()) {
                    Ok(_) => written += 1,
                    Err(e) => failures.push(format!("model {i} animation {a}: the NAD does not read: {e}")),
                },
                Err(WriteError::InvalidModel(e)) => {
                    failures.push(format!("model {i}: valid model refused as invalid: {e}"))
                }
                Err(_) => refused += 1,
            }
        }
        if !model.animations.is_empty() {
            let mut poisoned = model.clone();
            let what = poison(&mut poisoned, &mut rng);
            if !matches!(
                relic_nod::write_animation(&poisoned, 0, &Default::default()),
                Err(WriteError::InvalidModel(_))
            ) {
                failures.push(format!("model {i} with a non-finite {what}: not refused as invalid"));
            }
        }
    }
    println!("NAD: {written} written, {refused} refused");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert!(written >= 200, "{written}");
}
