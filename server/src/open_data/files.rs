//! A page of games as the open data files' bytes: the records (each game's headers, then its
//! record) and the table (a CSV row per seat). Pure: the games come from `store.rs`.

use protocol::ClockSpec;

use super::month::utc;

/// A seat of a finished rated game, as the table shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatRow {
    pub player: String,
    pub rating_before: Option<f64>,
    pub rating_after: Option<f64>,
    /// 1 for the winner (or every seat of a draw), 2 for the next...
    pub place: Option<u8>,
}

/// A finished rated game, with what the files say of it.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenGame {
    pub id: i64,
    pub finished_ms: i64,
    pub game: String,
    pub variant: String,
    pub clock: Option<ClockSpec>,
    pub reason: String,
    pub plies: usize,
    pub seats: Vec<SeatRow>,
    /// Its record's format (`opentafl`, `actions`) and text.
    pub record: (String, String),
}

/// The two files of a month.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// The games' records: `records.txt`.
    Records,
    /// The table of seats: `games.csv`.
    Table,
}

impl FileKind {
    /// Its name in a URL (`/api/open-data/2026-11/games.csv`).
    pub fn parse(name: &str) -> Option<FileKind> {
        match name {
            "records.txt" => Some(FileKind::Records),
            "games.csv" => Some(FileKind::Table),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            FileKind::Records => "records.txt",
            FileKind::Table => "games.csv",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            FileKind::Records => "text/plain; charset=utf-8",
            FileKind::Table => "text/csv; charset=utf-8",
        }
    }

    /// What the file starts with, before any game.
    pub fn header(self) -> &'static [u8] {
        match self {
            FileKind::Records => b"",
            FileKind::Table => TABLE_HEADER.as_bytes(),
        }
    }

    /// A page of games written as this file's bytes.
    pub fn render(self, games: &[OpenGame]) -> Vec<u8> {
        match self {
            FileKind::Records => records(games),
            FileKind::Table => table_rows(games),
        }
    }
}

/// The table's first line.
pub const TABLE_HEADER: &str = "match_id,finished_at,game,variant,clock,seat,player,rating_before,rating_after,place,reason,plies\n";

/// A clock as the table writes it: `300+3` (seconds), `3d/move`, or empty for none.
fn clock_text(clock: Option<ClockSpec>) -> String {
    match clock {
        None => String::new(),
        Some(c) if c.per_move => format!("{}d/move", c.base_ms / protocol::DAY_MS),
        Some(c) => format!("{}+{}", c.base_ms / 1000, c.increment_ms / 1000),
    }
}

fn rating(r: Option<f64>) -> String {
    r.map(|r| format!("{r:.1}")).unwrap_or_default()
}

/// The table's rows for `games`, a row per seat.
pub fn table_rows(games: &[OpenGame]) -> Vec<u8> {
    let mut out = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    for g in games {
        for (seat, s) in g.seats.iter().enumerate() {
            let row = [
                g.id.to_string(),
                utc(g.finished_ms),
                g.game.clone(),
                g.variant.clone(),
                clock_text(g.clock),
                seat.to_string(),
                s.player.clone(),
                rating(s.rating_before),
                rating(s.rating_after),
                s.place.map(|p| p.to_string()).unwrap_or_default(),
                g.reason.clone(),
                g.plies.to_string(),
            ];
            out.write_record(&row)
                .expect("writing to memory does not fail");
        }
    }
    out.into_inner().expect("writing to memory does not fail")
}

/// The records of `games`: each game's headers in square brackets (its number, when it ended,
/// its game and variant, its clock, and each seat's player), then its record, then a blank line.
pub fn records(games: &[OpenGame]) -> Vec<u8> {
    let mut out = String::new();
    for g in games {
        out.push_str(&format!(
            "[match:{}]\n[finished:{}]\n",
            g.id,
            utc(g.finished_ms)
        ));
        out.push_str(&format!(
            "[game:{}]\n[pool:{}/{}]\n",
            g.game, g.game, g.variant
        ));
        if g.clock.is_some() {
            out.push_str(&format!("[clock:{}]\n", clock_text(g.clock)));
        }
        for (seat, s) in g.seats.iter().enumerate() {
            out.push_str(&format!("[seat{seat}:{}]\n", s.player));
        }
        out.push_str(&format!("[format:{}]\n", g.record.0));
        out.push_str(g.record.1.trim_end());
        out.push_str("\n\n");
    }
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(player: &str) -> OpenGame {
        OpenGame {
            id: 7,
            finished_ms: 1_795_000_000_000,
            game: "tafl".into(),
            variant: "copenhagen".into(),
            clock: Some(protocol::TimeControl::Blitz.clock()),
            reason: "king_escaped".into(),
            plies: 30,
            seats: vec![
                SeatRow {
                    player: player.into(),
                    rating_before: Some(1500.0),
                    rating_after: Some(1484.25),
                    place: Some(2),
                },
                SeatRow {
                    player: "bjorn".into(),
                    rating_before: Some(1500.0),
                    rating_after: Some(1515.75),
                    place: Some(1),
                },
            ],
            record: (
                "opentafl".into(),
                "[variant:copenhagen]\n1. d1-d3 e5-e2\n".into(),
            ),
        }
    }

    #[test]
    fn a_row_per_seat_and_names_are_quoted_as_csv_needs() {
        let rows = String::from_utf8(table_rows(&[game("al,\"ice\"")])).unwrap();
        let lines: Vec<&str> = rows.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(
            lines[0],
            "7,2026-11-18T11:06:40Z,tafl,copenhagen,300+3,0,\"al,\"\"ice\"\"\",1500.0,1484.2,2,king_escaped,30"
        );
        assert!(
            lines[1].starts_with(
                "7,2026-11-18T11:06:40Z,tafl,copenhagen,300+3,1,bjorn,1500.0,1515.8,1,"
            )
        );
        assert_eq!(TABLE_HEADER.split(',').count(), lines[1].split(',').count());
    }

    #[test]
    fn a_record_has_its_headers_then_the_record() {
        let text = String::from_utf8(records(&[game("alice"), game("carl")])).unwrap();
        assert!(text.starts_with("[match:7]\n[finished:2026-11-18T11:06:40Z]\n[game:tafl]\n[pool:tafl/copenhagen]\n[clock:300+3]\n[seat0:alice]\n[seat1:bjorn]\n[format:opentafl]\n[variant:copenhagen]\n1. d1-d3 e5-e2\n\n"));
        assert_eq!(text.matches("[match:7]").count(), 2);
    }

    #[test]
    fn clocks_read_as_people_write_them() {
        assert_eq!(clock_text(None), "");
        assert_eq!(
            clock_text(Some(protocol::TimeControl::Correspondence.clock())),
            "3d/move"
        );
        assert_eq!(
            clock_text(Some(protocol::TimeControl::Bullet.clock())),
            "60+0"
        );
    }
}
