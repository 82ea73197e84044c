//! A board's contents as a plain grid: start layouts, positions read from notation, diagrams.
//!
//! Diagrams are how presets and tests write boards: one line per rank from the top, one
//! character per square (`A` attacker, `D` defender, `K` king, `.` or `#` empty, `#` marking a
//! special square for the reader), spaces ignored. Rank numbers and a file-letter line, as
//! printed by [`Layout::diagram`], are accepted and skipped.

use std::fmt;

use super::square::{MAX_DIM, Piece, Square};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    dim: u8,
    squares: Vec<Option<Piece>>,
}

/// A diagram that is not a square board of a supported size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagramError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for DiagramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "diagram line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for DiagramError {}

impl Layout {
    pub fn empty(dim: u8) -> Layout {
        Layout {
            dim,
            squares: vec![None; usize::from(dim) * usize::from(dim)],
        }
    }

    pub fn dim(&self) -> u8 {
        self.dim
    }

    pub fn get(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.squares[sq.index()] = piece;
    }

    /// Every occupied square with its piece, from a1 upward.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.squares
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.map(|p| (Square::from_index(i), p)))
    }

    pub fn count(&self, piece: Piece) -> usize {
        self.squares.iter().filter(|&&p| p == Some(piece)).count()
    }

    /// Reads a diagram (see the module documentation).
    pub fn from_diagram(text: &str) -> Result<Layout, DiagramError> {
        let mut rows: Vec<(usize, Vec<Option<Piece>>)> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let cells: String = line
                .chars()
                .filter(|c| !c.is_whitespace())
                .skip_while(|c| c.is_ascii_digit())
                .collect();
            let is_file_letters = !cells.is_empty()
                && cells.chars().all(|c| c.is_ascii_lowercase())
                && cells.starts_with('a');
            if cells.is_empty() || is_file_letters {
                continue;
            }
            let row = cells
                .chars()
                .enumerate()
                .map(|(col, c)| match c {
                    'A' => Ok(Some(Piece::Attacker)),
                    'D' => Ok(Some(Piece::Defender)),
                    'K' => Ok(Some(Piece::King)),
                    '.' | '#' => Ok(None),
                    other => Err(DiagramError {
                        line: n + 1,
                        message: format!("unknown square '{other}' in column {}", col + 1),
                    }),
                })
                .collect::<Result<Vec<_>, _>>()?;
            rows.push((n + 1, row));
        }
        let dim = rows.len();
        if !(3..=usize::from(MAX_DIM)).contains(&dim) {
            return Err(DiagramError {
                line: text.lines().count(),
                message: format!("{dim} ranks; a board has 3 to {MAX_DIM}"),
            });
        }
        let mut layout = Layout::empty(dim as u8);
        // The first line is the top rank.
        for (i, (line, row)) in rows.into_iter().enumerate() {
            if row.len() != dim {
                return Err(DiagramError {
                    line,
                    message: format!("{} squares on a rank of a {dim}x{dim} board", row.len()),
                });
            }
            let rank = (dim - 1 - i) as u8;
            for (file, piece) in row.into_iter().enumerate() {
                layout.set(Square::at(file as u8, rank, dim as u8), piece);
            }
        }
        Ok(layout)
    }

    /// The board as a diagram with rank numbers and file letters, top rank first. `special`
    /// marks empty squares drawn as `#`.
    pub fn diagram(&self, special: impl Fn(Square) -> bool) -> String {
        let dim = self.dim;
        let mut out = String::new();
        for rank in (0..dim).rev() {
            out.push_str(&format!("{:>2} ", rank + 1));
            for file in 0..dim {
                let sq = Square::at(file, rank, dim);
                out.push(match self.get(sq) {
                    Some(Piece::Attacker) => 'A',
                    Some(Piece::Defender) => 'D',
                    Some(Piece::King) => 'K',
                    None if special(sq) => '#',
                    None => '.',
                });
                if file + 1 < dim {
                    out.push(' ');
                }
            }
            out.push('\n');
        }
        out.push_str("   ");
        let letters: Vec<String> = (0..dim).map(|f| ((b'a' + f) as char).to_string()).collect();
        out.push_str(&letters.join(" "));
        out.push('\n');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagram_round_trip() {
        let text = "
            # . A . #
            . . D . .
            A D K D A
            . . D . .
            # . A . #";
        let layout = Layout::from_diagram(text).unwrap();
        assert_eq!(layout.dim(), 5);
        assert_eq!(layout.get(Square::at(2, 2, 5)), Some(Piece::King));
        assert_eq!(layout.get(Square::at(2, 4, 5)), Some(Piece::Attacker));
        assert_eq!(layout.count(Piece::Defender), 4);
        let printed = layout.diagram(|_| false);
        assert_eq!(Layout::from_diagram(&printed).unwrap(), layout);
    }

    #[test]
    fn bad_diagrams_name_the_line() {
        let err = Layout::from_diagram("...\n.x.\n...").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.contains("'x'"), "{err}");
        let err = Layout::from_diagram("...\n..\n...").unwrap_err();
        assert_eq!(err.line, 2);
    }
}
