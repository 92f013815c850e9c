//! The bounded readers under the counting allocator: a hostile count is refused before anything
//! proportional to it is allocated.

use binrw::{BinRead, Endian};
use relic_core::binary::{counted, parse, pod_vec, records};
use relic_testkit::{CountingAllocator, Limits, check, counting_installed, peak_allocation};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

#[derive(Debug, BinRead)]
#[br(little)]
#[allow(dead_code)]
struct Table {
    count: u32,
    #[br(parse_with = counted, args(u64::from(count), 2))]
    values: Vec<u16>,
}

#[test]
fn the_allocator_counts() {
    assert!(counting_installed());
    let (_, peak) = peak_allocation(|| std::hint::black_box(vec![0u8; 1 << 20]));
    assert!(peak >= 1 << 20);
    let err = check("big", b"x", Limits::default(), |_| -> Result<Vec<u8>, ()> { Ok(vec![1u8; 4 << 20]) }).unwrap_err();
    assert!(err.contains("budget"), "{err}");
}

#[test]
fn hostile_counts_allocate_nothing_proportional() {
    for count in [1u32 << 16, 1 << 31, u32::MAX] {
        let mut bytes = count.to_le_bytes().to_vec();
        bytes.extend_from_slice(&[0; 12]);
        let limits = Limits { per_input_byte: 16, fixed: 4096, ..Limits::default() };
        check("counted", &bytes, limits, |b| parse(b, |s| Table::read(s))).unwrap();
        let n = u64::from(count);
        check("pod_vec", &bytes, limits, |b| parse(b, |s| pod_vec::<_, [f32; 3]>(s, Endian::Little, (n,)))).unwrap();
        check("records", &bytes, limits, |b| parse(b, |s| records::<_, Rec>(s, Endian::Little, (n,)))).unwrap();
        assert!(parse(&bytes, |s| Table::read(s)).is_err());
    }
}

#[derive(Debug)]
struct Rec;
impl relic_core::binary::Record for Rec {
    const SIZE: usize = 40;
    fn decode(_: &mut relic_core::binary::Fields<'_>) -> Self {
        Rec
    }
    fn encode(&self, _: &mut Vec<u8>) {}
}
