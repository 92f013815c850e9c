//! Key times back to the file's after a tool baked the animation. ABC interpolates linearly
//! between keys and its extras keep the file's key times (ms); the fit at those times, the
//! reduction of baked keys and their tolerances are `relic_core::rekey`'s (shared with relic-ltb).
//! Here: the file's times in ms, and the note when a clip does not fit.

use relic_core::Loss;
use relic_core::model::Animation;

pub(crate) use relic_core::rekey::{REDUCE_ROTATION, REDUCE_TRANSLATION, looks_baked, reduced};

/// The animation keyed at `stored` (ms, ascending) with every channel fitted there, or `None` if
/// a channel does not fit ([`relic_core::rekey::rekeyed`]).
pub(crate) fn rekeyed(anim: &Animation, stored: &[u32]) -> Option<Animation> {
    let knots: Vec<f32> = stored.iter().map(|&t| t as f32 / 1000.0).collect();
    relic_core::rekey::rekeyed(anim, &knots)
}

/// The clip back at its stored key times (ms) when a tool baked it (its own key times, `own`,
/// differ), or `None` where it needs nothing or cannot be fitted — the latter with a note: the
/// file's key times are then lost and the tool's keys written.
pub(crate) fn rekeyed_or_noted(
    anim: &Animation,
    own: &[u32],
    stored: &[u32],
    losses: &mut Vec<Loss>,
) -> Option<Animation> {
    if stored.is_empty() || anim.channels.is_empty() || own == stored {
        return None;
    }
    let fitted = rekeyed(anim, stored);
    if fitted.is_none() {
        losses.push(Loss::new(
            format!("animations {:?}", anim.name),
            format!(
                "the file's {} key times do not fit the glTF's keys (the motion changed between them): written at the \
                 glTF's key times",
                stored.len()
            ),
        ));
    }
    fitted
}

#[cfg(test)]
mod tests {
    use super::*;
    use relic_core::model::{Channel, ChannelValues, Clock, Interpolation};

    /// A translation keyed at 0, 0.1 and 0.3 s (a corner at 0.1 s, between frames), baked at
    /// every 24th of a second, `edit` added to the frame at 0.25 s.
    fn baked(edit: f32) -> Animation {
        let original = |t: f32| if t <= 0.1 { t * 10.0 } else { 1.0 + (t - 0.1) * 5.0 };
        let times: Vec<f32> = (0..=8).map(|f| (f as f32 / 24.0).min(0.3)).collect();
        let values =
            times.iter().map(|&t| [original(t) + if (t - 0.25).abs() < 1e-4 { edit } else { 0.0 }, 0.0, 0.0]).collect();
        Animation {
            name: "walk".into(),
            channels: vec![Channel {
                bone: 0,
                clock: Clock::Animation,
                interpolation: Interpolation::Linear,
                times,
                values: ChannelValues::Translation(values),
            }],
            ..Animation::default()
        }
    }

    #[test]
    fn stored_milliseconds_are_fitted_or_noted() {
        let mut losses = Vec::new();
        let own: Vec<u32> = (0..=8).map(|f| (f * 1000 / 24).min(300)).collect();
        let fitted = rekeyed_or_noted(&baked(0.0), &own, &[0, 100, 300], &mut losses).expect("fits");
        assert_eq!(fitted.channels[0].times, vec![0.0, 0.1, 0.3]);
        assert!(losses.is_empty());
        assert!(rekeyed_or_noted(&baked(0.5), &own, &[0, 100, 300], &mut losses).is_none());
        assert_eq!(losses.len(), 1, "{losses:?}");
        assert!(losses[0].to_string().contains("3 key times do not fit"), "{}", losses[0]);
        // Nothing to do: no stored times, or the clip is keyed at them already.
        assert!(rekeyed_or_noted(&baked(0.0), &own, &[], &mut losses).is_none());
        assert!(rekeyed_or_noted(&baked(0.0), &[0, 100, 300], &[0, 100, 300], &mut losses).is_none());
        assert_eq!(losses.len(), 1);
    }
}
