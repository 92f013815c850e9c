//! Names of AnimationData ids and key bones.
//!
//! AnimationData ids 0–228 as listed by peers (ids never change between clients; 1.12 has ids
//! 0–202, which is why its playable lookup has 203 entries). Key-bone names 0–26 (WMV
//! `KeyBones`); verified on the real file: the `$BTH`, `$CHD` and `$CCH` key bones are the bones
//! the events of those names sit on.

/// AnimationData names by id.
pub const ANIMATION_NAMES: [&str; 229] = [
    "Stand",
    "Death",
    "Spell",
    "Stop",
    "Walk",
    "Run",
    "Dead",
    "Rise",
    "StandWound",
    "CombatWound",
    "CombatCritical",
    "ShuffleLeft",
    "ShuffleRight",
    "Walkbackwards",
    "Stun",
    "HandsClosed",
    "AttackUnarmed",
    "Attack1H",
    "Attack2H",
    "Attack2HL",
    "ParryUnarmed",
    "Parry1H",
    "Parry2H",
    "Parry2HL",
    "ShieldBlock",
    "ReadyUnarmed",
    "Ready1H",
    "Ready2H",
    "Ready2HL",
    "ReadyBow",
    "Dodge",
    "SpellPrecast",
    "SpellCast",
    "SpellCastArea",
    "NPCWelcome",
    "NPCGoodbye",
    "Block",
    "JumpStart",
    "Jump",
    "JumpEnd",
    "Fall",
    "SwimIdle",
    "Swim",
    "SwimLeft",
    "SwimRight",
    "SwimBackwards",
    "AttackBow",
    "FireBow",
    "ReadyRifle",
    "AttackRifle",
    "Loot",
    "ReadySpellDirected",
    "ReadySpellOmni",
    "SpellCastDirected",
    "SpellCastOmni",
    "BattleRoar",
    "ReadyAbility",
    "Special1H",
    "Special2H",
    "ShieldBash",
    "EmoteTalk",
    "EmoteEat",
    "EmoteWork",
    "EmoteUseStanding",
    "EmoteTalkExclamation",
    "EmoteTalkQuestion",
    "EmoteBow",
    "EmoteWave",
    "EmoteCheer",
    "EmoteDance",
    "EmoteLaugh",
    "EmoteSleep",
    "EmoteSitGround",
    "EmoteRude",
    "EmoteRoar",
    "EmoteKneel",
    "EmoteKiss",
    "EmoteCry",
    "EmoteChicken",
    "EmoteBeg",
    "EmoteApplaud",
    "EmoteShout",
    "EmoteFlex",
    "EmoteShy",
    "EmotePoint",
    "Attack1HPierce",
    "Attack2HLoosePierce",
    "AttackOff",
    "AttackOffPierce",
    "Sheath",
    "HipSheath",
    "Mount",
    "RunRight",
    "RunLeft",
    "MountSpecial",
    "Kick",
    "SitGroundDown",
    "SitGround",
    "SitGroundUp",
    "SleepDown",
    "Sleep",
    "SleepUp",
    "SitChairLow",
    "SitChairMed",
    "SitChairHigh",
    "LoadBow",
    "LoadRifle",
    "AttackThrown",
    "ReadyThrown",
    "HoldBow",
    "HoldRifle",
    "HoldThrown",
    "LoadThrown",
    "EmoteSalute",
    "KneelStart",
    "KneelLoop",
    "KneelEnd",
    "AttackUnarmedOff",
    "SpecialUnarmed",
    "StealthWalk",
    "StealthStand",
    "Knockdown",
    "EatingLoop",
    "UseStandingLoop",
    "ChannelCastDirected",
    "ChannelCastOmni",
    "Whirlwind",
    "Birth",
    "UseStandingStart",
    "UseStandingEnd",
    "CreatureSpecial",
    "Drown",
    "Drowned",
    "FishingCast",
    "FishingLoop",
    "Fly",
    "EmoteWorkNoSheathe",
    "EmoteStunNoSheathe",
    "EmoteUseStandingNoSheathe",
    "SpellSleepDown",
    "SpellKneelStart",
    "SpellKneelLoop",
    "SpellKneelEnd",
    "Sprint",
    "InFlight",
    "Spawn",
    "Close",
    "Closed",
    "Open",
    "Opened",
    "Destroy",
    "Destroyed",
    "Rebuild",
    "Custom0",
    "Custom1",
    "Custom2",
    "Custom3",
    "Despawn",
    "Hold",
    "Decay",
    "BowPull",
    "BowRelease",
    "ShipStart",
    "ShipMoving",
    "ShipStop",
    "GroupArrow",
    "Arrow",
    "CorpseArrow",
    "GuideArrow",
    "Sway",
    "DruidCatPounce",
    "DruidCatRip",
    "DruidCatRake",
    "DruidCatRavage",
    "DruidCatClaw",
    "DruidCatCower",
    "DruidBearSwipe",
    "DruidBearBite",
    "DruidBearMaul",
    "DruidBearBash",
    "DragonTail",
    "DragonStomp",
    "DragonSpit",
    "DragonSpitHover",
    "DragonSpitFly",
    "EmoteYes",
    "EmoteNo",
    "JumpLandRun",
    "LootHold",
    "LootUp",
    "StandHigh",
    "Impact",
    "LiftOff",
    "Hover",
    "SuccubusEntice",
    "EmoteTrain",
    "EmoteDead",
    "EmoteDanceOnce",
    "Deflect",
    "EmoteEatNoSheathe",
    "Land",
    "Submerge",
    "Submerged",
    "Cannibalize",
    "ArrowBirth",
    "GroupArrowBirth",
    "CorpseArrowBirth",
    "GuideArrowBirth",
    "EmoteTalkNoSheathe",
    "EmotePointNoSheathe",
    "EmoteSaluteNoSheathe",
    "EmoteDanceSpecial",
    "Mutilate",
    "CustomSpell01",
    "CustomSpell02",
    "CustomSpell03",
    "CustomSpell04",
    "CustomSpell05",
    "CustomSpell06",
    "CustomSpell07",
    "CustomSpell08",
    "CustomSpell09",
    "CustomSpell10",
    "StealthRun",
    "Emerge",
    "Cower",
    "Grab",
    "GrabClosed",
    "GrabThrown",
];

/// Number of AnimationData ids of the 1.12 client (the size of its playable lookup).
pub const CLASSIC_ANIMATION_IDS: usize = 203;

/// Key-bone names by key-bone id.
pub const KEY_BONE_NAMES: [&str; 27] = [
    "ArmL",
    "ArmR",
    "ShoulderL",
    "ShoulderR",
    "SpineLow",
    "Waist",
    "Head",
    "Jaw",
    "IndexFingerR",
    "MiddleFingerR",
    "PinkyFingerR",
    "RingFingerR",
    "ThumbR",
    "IndexFingerL",
    "MiddleFingerL",
    "PinkyFingerL",
    "RingFingerL",
    "ThumbL",
    "$BTH",
    "$CSR",
    "$CSL",
    "_Breath",
    "_Name",
    "_NameMount",
    "$CHD",
    "$CCH",
    "Root",
];

/// The animation name of an id: its AnimationData name, else `anim_<id>`.
pub fn animation_name(id: u16) -> String {
    ANIMATION_NAMES.get(usize::from(id)).map_or_else(|| format!("anim_{id}"), |n| (*n).to_string())
}

/// The id of an animation name (`Stand.0`, `Walk`, `anim_130.1`), case-insensitive; `None` if unknown.
pub fn animation_id(name: &str) -> Option<u16> {
    let base = name.split('.').next().unwrap_or(name);
    if let Some(n) = base.strip_prefix("anim_") {
        return n.parse().ok();
    }
    ANIMATION_NAMES.iter().position(|n| n.eq_ignore_ascii_case(base)).and_then(|i| u16::try_from(i).ok())
}

/// A bone's name: its key-bone name, else `bone_<index>`.
pub fn bone_name(index: usize, key_bone_id: i32) -> String {
    usize::try_from(key_bone_id)
        .ok()
        .and_then(|k| KEY_BONE_NAMES.get(k))
        .map_or_else(|| format!("bone_{index}"), |n| (*n).to_string())
}

/// The key-bone id of a bone name, if it is a key-bone name.
pub fn key_bone_id(name: &str) -> Option<i32> {
    KEY_BONE_NAMES.iter().position(|n| *n == name).and_then(|i| i32::try_from(i).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_ids() {
        assert_eq!(animation_name(0), "Stand");
        assert_eq!(animation_name(130), "CreatureSpecial");
        assert_eq!(animation_name(202), "Submerged");
        assert_eq!(animation_name(999), "anim_999");
        assert_eq!(animation_id("Walk.2"), Some(4));
        assert_eq!(animation_id("run"), Some(5));
        assert_eq!(animation_id("anim_999.0"), Some(999));
        assert_eq!(animation_id("dance"), None);
        assert_eq!(bone_name(10, 26), "Root");
        assert_eq!(bone_name(3, -1), "bone_3");
    }
}
