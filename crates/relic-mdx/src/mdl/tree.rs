//! MDL text as a tree (spec §8.2, §8.3): `//` comments dropped, strings in quotes, `,` ending a
//! statement, `{` opening a block whose head is the statement so far (`Bone "Root" {`,
//! `MinimumExtent {`, `0: {`), `:` kept as a token (key frames). Tokens are slices of the text;
//! the tree of a text holds at most a few tens of bytes per byte of it (`tests/mdl.rs` measures
//! the densest text), and nesting is bounded.

use relic_core::ReadError;

/// One token: a slice of the text (nothing is copied).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Tok<'a> {
    /// A keyword or a number, as written.
    Word(&'a str),
    /// A quoted string, without the quotes.
    Str(&'a str),
    /// `:`.
    Colon,
}

impl<'a> Tok<'a> {
    pub(crate) fn word(&self) -> Option<&'a str> {
        match self {
            Self::Word(w) => Some(w),
            _ => None,
        }
    }
}

/// A statement or a block (16 bytes: a text's tree stays within a few tens of times its size).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Item<'a> {
    /// Tokens up to a `,` (or the block's end).
    Stmt(Box<[Tok<'a>]>),
    /// A block.
    Block(Box<Block<'a>>),
}

/// `head { items }`.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Block<'a> {
    /// The tokens before `{`.
    pub(crate) head: Box<[Tok<'a>]>,
    /// Its statements and blocks, in order.
    pub(crate) items: Vec<Item<'a>>,
    /// The line the block starts on (for messages).
    pub(crate) line: usize,
}

fn error(line: usize, message: impl std::fmt::Display) -> ReadError {
    ReadError::document(format!("MDL line {line}: {message}"))
}

/// What the tokenizer hands the tree builder.
enum Lexeme<'a> {
    Tok(Tok<'a>),
    Open,
    Close,
    Comma,
}

/// Splits `text` into lexemes, calling `emit` with each and its line.
fn lex<'a>(
    text: &'a str,
    mut emit: impl FnMut(Lexeme<'a>, usize) -> Result<(), ReadError>,
) -> Result<usize, ReadError> {
    let bytes = text.as_bytes();
    let mut i = 0usize;
    let mut line = 1usize;
    let slice = |a: usize, b: usize| text.get(a..b).unwrap_or_default();
    while let Some(&c) = bytes.get(i) {
        match c {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b' ' | b'\t' | b'\r' | 0x0B | 0x0C => i += 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while bytes.get(i).is_some_and(|&b| b != b'\n') {
                    i += 1;
                }
            }
            b'"' => {
                let start = line;
                let from = i + 1;
                let mut j = from;
                loop {
                    match bytes.get(j) {
                        Some(b'"') => break,
                        Some(b'\n') => line += 1,
                        Some(_) => {}
                        None => return Err(error(start, "a string is not closed")),
                    }
                    j += 1;
                }
                emit(Lexeme::Tok(Tok::Str(slice(from, j))), start)?;
                i = j + 1;
            }
            b'{' => {
                emit(Lexeme::Open, line)?;
                i += 1;
            }
            b'}' => {
                emit(Lexeme::Close, line)?;
                i += 1;
            }
            b',' => {
                emit(Lexeme::Comma, line)?;
                i += 1;
            }
            b':' => {
                emit(Lexeme::Tok(Tok::Colon), line)?;
                i += 1;
            }
            _ => {
                let from = i;
                while bytes
                    .get(i)
                    .is_some_and(|&b| !b.is_ascii_whitespace() && !matches!(b, b'{' | b'}' | b',' | b':' | b'"' | b'/'))
                {
                    i += 1;
                }
                if i == from {
                    // A lone '/': a word of its own.
                    i += 1;
                }
                emit(Lexeme::Tok(Tok::Word(slice(from, i))), line)?;
            }
        }
    }
    Ok(line)
}

/// The deepest nesting read (real files nest 5 deep: a key's tangent in a track in a layer in a
/// material in `Materials`); deeper text is refused before the tree's recursion could exhaust
/// the stack.
const MAX_DEPTH: usize = 32;

/// The whole text as a root block (no head).
pub(crate) fn parse_tree(text: &str) -> Result<Block<'_>, ReadError> {
    let mut stack: Vec<Block<'_>> = vec![Block { line: 1, ..Block::default() }];
    let mut stmt: Vec<Tok<'_>> = Vec::new();
    let last_line = lex(text, |lexeme, line| {
        match lexeme {
            Lexeme::Open => {
                if stack.len() > MAX_DEPTH {
                    return Err(error(line, format!("blocks nested deeper than {MAX_DEPTH}")));
                }
                let head = std::mem::take(&mut stmt).into_boxed_slice();
                stack.push(Block { head, items: Vec::new(), line });
            }
            Lexeme::Close => {
                let mut done = stack.pop().ok_or_else(|| error(line, "unbalanced }"))?;
                if !stmt.is_empty() {
                    done.items.push(Item::Stmt(std::mem::take(&mut stmt).into_boxed_slice()));
                }
                let parent = stack.last_mut().ok_or_else(|| error(line, "a } without its {"))?;
                parent.items.push(Item::Block(Box::new(done)));
            }
            Lexeme::Comma => {
                if !stmt.is_empty() {
                    let parent = stack.last_mut().ok_or_else(|| error(line, "a , outside any block"))?;
                    parent.items.push(Item::Stmt(std::mem::take(&mut stmt).into_boxed_slice()));
                }
            }
            Lexeme::Tok(tok) => stmt.push(tok),
        }
        Ok(())
    })?;
    let mut root = stack.pop().ok_or_else(|| error(last_line, "no text"))?;
    if !stack.is_empty() {
        return Err(error(last_line, format!("{} block(s) are not closed", stack.len() + 1)));
    }
    if !stmt.is_empty() {
        root.items.push(Item::Stmt(stmt.into_boxed_slice()));
    }
    Ok(root)
}

/// A statement's or a block head's keyword: the first word, after `static`.
pub(crate) fn keyword<'a>(tokens: &[Tok<'a>]) -> Option<&'a str> {
    let mut words = tokens.iter();
    let first = words.next()?.word()?;
    if first == "static" { words.next()?.word() } else { Some(first) }
}

/// The tokens after the keyword (and `static`).
pub(crate) fn args<'t, 'a>(tokens: &'t [Tok<'a>]) -> &'t [Tok<'a>] {
    let skip = if tokens.first().and_then(Tok::word) == Some("static") { 2 } else { 1 };
    tokens.get(skip..).unwrap_or_default()
}

impl<'a> Block<'a> {
    /// Child blocks whose keyword is `kw`.
    pub(crate) fn blocks<'s>(&'s self, kw: &str) -> impl Iterator<Item = &'s Block<'a>> + use<'s, 'a> {
        let kw = kw.to_string();
        self.items.iter().filter_map(move |i| match i {
            Item::Block(b) if keyword(&b.head) == Some(kw.as_str()) => Some(&**b),
            _ => None,
        })
    }

    /// The first child block whose keyword is `kw`.
    pub(crate) fn block(&self, kw: &str) -> Option<&Block<'a>> {
        self.blocks(kw).next()
    }

    /// The arguments of the first statement whose keyword is `kw`.
    pub(crate) fn stmt(&self, kw: &str) -> Option<&[Tok<'a>]> {
        self.items.iter().find_map(|i| match i {
            Item::Stmt(s) if keyword(s) == Some(kw) => Some(args(s)),
            _ => None,
        })
    }

    /// Whether a statement is the bare keyword `kw` (a flag).
    pub(crate) fn flag(&self, kw: &str) -> bool {
        self.items
            .iter()
            .any(|i| matches!(i, Item::Stmt(s) if s.len() == 1 && s.first().and_then(Tok::word) == Some(kw)))
    }

    /// The words of the block's statements, flattened (the numbers of a vector block).
    pub(crate) fn words(&self) -> Vec<&'a str> {
        let mut out = Vec::new();
        for item in &self.items {
            match item {
                Item::Stmt(s) => out.extend(s.iter().filter_map(Tok::word)),
                Item::Block(b) => out.extend(b.words()),
            }
        }
        out
    }

    /// The keyword of the block's head.
    pub(crate) fn kw(&self) -> &'a str {
        keyword(&self.head).unwrap_or("")
    }
}
