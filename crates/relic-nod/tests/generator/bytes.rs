//! A little-endian byte builder of the generator's own: files are laid out here field by field
//! from the spec, never with relic-nod's writer, so a reader bug and a writer bug cannot cancel.

pub(crate) use relic_testkit::LeBytes as Le;
