//! What every game's text notation reader shares: a `Cursor` over the text that knows where it
//! is, and the [`NotationError`] naming the character where reading failed, counted from 1.
//! Each game says what it expected with its own `Expected` type.

use std::fmt;

/// At character `at` (counted from 1) the reader wanted `expected` and found `found`, `None`
/// where the text ended. `F` is what is reported as found: a character, or a whole word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError<E, F = char> {
    pub at: usize,
    pub expected: E,
    pub found: Option<F>,
}

impl<E> NotationError<E> {
    /// The same error, with what was found reported as a word.
    pub fn as_word(self) -> NotationError<E, String> {
        NotationError {
            at: self.at,
            expected: self.expected,
            found: self.found.map(String::from),
        }
    }
}

impl<E: fmt::Display, F: fmt::Display> fmt::Display for NotationError<E, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "character {}: expected {}, found ",
            self.at, self.expected
        )?;
        match &self.found {
            Some(found) => write!(f, "'{found}'"),
            None => f.write_str("the end of the text"),
        }
    }
}

impl<E: fmt::Debug + fmt::Display, F: fmt::Debug + fmt::Display> std::error::Error
    for NotationError<E, F>
{
}

/// Reads a text one character at a time, keeping the position for error messages.
pub(crate) struct Cursor {
    chars: Vec<char>,
    next: usize,
}

impl Cursor {
    pub fn new(text: &str) -> Cursor {
        Cursor {
            chars: text.chars().collect(),
            next: 0,
        }
    }

    /// The 1-based position of the next character.
    pub fn at(&self) -> usize {
        self.next + 1
    }

    pub fn peek(&self) -> Option<char> {
        self.chars.get(self.next).copied()
    }

    pub fn at_end(&self) -> bool {
        self.next >= self.chars.len()
    }

    /// Passes over the next character, which [`Cursor::peek`] has shown.
    pub fn advance(&mut self) {
        self.next += 1;
    }

    /// The error for finding the next character (or the end) instead of `expected`.
    pub fn error<E>(&self, expected: E) -> NotationError<E> {
        NotationError {
            at: self.at(),
            expected,
            found: self.peek(),
        }
    }

    /// Takes the next character and what `read` makes of it, if it makes anything.
    pub fn take<T, E>(
        &mut self,
        expected: E,
        read: impl FnOnce(char) -> Option<T>,
    ) -> Result<T, NotationError<E>> {
        let value = self
            .peek()
            .and_then(read)
            .ok_or_else(|| self.error(expected))?;
        self.next += 1;
        Ok(value)
    }

    /// Takes the next character if it is `wanted`.
    pub fn expect<E>(&mut self, wanted: char, expected: E) -> Result<(), NotationError<E>> {
        self.take(expected, |c| (c == wanted).then_some(()))
    }

    /// Takes the characters `accept` allows; returns where they start and what they are.
    pub fn take_while(&mut self, accept: impl Fn(char) -> bool) -> (usize, String) {
        let start = self.next;
        while self.peek().is_some_and(&accept) {
            self.next += 1;
        }
        (start + 1, self.chars[start..self.next].iter().collect())
    }

    /// Succeeds where the text has been read to its end.
    pub fn end<E>(&self, expected: E) -> Result<(), NotationError<E>> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.error(expected))
        }
    }
}
