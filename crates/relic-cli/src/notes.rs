//! Notes of what a conversion's target cannot hold, grouped for reading: a model with 104 bones
//! can give 300 notes of one kind (`bones[17]: 30 keys closer than 1 ms to the previous one
//! dropped`), which would hide the one note of another kind. Notes whose element and text differ
//! only in their numbers become one line with the number of notes, the elements' range and the
//! first number summed; `--verbose` prints every note as it is.

use relic::Loss;

/// The notes as lines, one per group, in the order each group first appears.
pub fn grouped(losses: &[Loss]) -> Vec<String> {
    let mut groups: Vec<(String, Vec<&Loss>)> = Vec::new();
    for loss in losses {
        let key = format!("{}\u{0}{}", shape(&loss.element), shape(&loss.what));
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(loss),
            None => groups.push((key, vec![loss])),
        }
    }
    groups.into_iter().map(|(_, members)| line(&members)).collect()
}

/// The text with every run of digits replaced by `#`.
fn shape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_number = false;
    for c in text.chars() {
        if c.is_ascii_digit() {
            if !in_number {
                out.push('#');
            }
            in_number = true;
        } else {
            out.push(c);
            in_number = false;
        }
    }
    out
}

/// One group's line: the note itself when alone; otherwise `ELEMENTS (N notes): TEXT` with the
/// text's first number replaced by the sum over the group.
fn line(members: &[&Loss]) -> String {
    let [first, ..] = members else { return String::new() };
    if members.len() == 1 {
        return first.to_string();
    }
    let mut elements: Vec<&str> = members.iter().map(|l| l.element.as_str()).collect();
    elements.dedup();
    let element = match elements.as_slice() {
        [one] => one.to_string(),
        [a, .., b] => format!("{a} … {b}"),
        [] => String::new(),
    };
    let total: Option<u64> = members.iter().map(|l| first_number(&l.what)).sum();
    let what = match (total, first_number(&first.what)) {
        (Some(total), Some(n)) => first.what.replacen(&n.to_string(), &total.to_string(), 1),
        _ => first.what.clone(),
    };
    format!("{element} ({} notes): {what}", members.len())
}

/// The first whole number in a text.
fn first_number(text: &str) -> Option<u64> {
    let start = text.find(|c: char| c.is_ascii_digit())?;
    let digits: String = text.get(start..)?.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_that_differ_only_in_numbers_become_one_line_with_the_sum() {
        let losses = vec![
            Loss::new("particles", "12 in the original, 0 written"),
            Loss::new("bones[3]", "30 keys closer than 1 ms to the previous one dropped"),
            Loss::new("bones[3]", "10 keys closer than 1 ms to the previous one dropped"),
            Loss::new("bones[7]", "5 keys closer than 1 ms to the previous one dropped"),
            Loss::new("bones[9]", "mixed interpolations resampled to linear"),
        ];
        assert_eq!(
            grouped(&losses),
            [
                "particles: 12 in the original, 0 written",
                "bones[3] … bones[7] (3 notes): 45 keys closer than 1 ms to the previous one dropped",
                "bones[9]: mixed interpolations resampled to linear",
            ]
        );
    }
}
