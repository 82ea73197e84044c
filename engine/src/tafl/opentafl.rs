//! OpenTafl notation: positions, moves, rules strings and game records.
//!
//! * Position: ranks from rank 1 upward, each between `/`, digits counting empty squares;
//!   attackers lowercase (`t` man), defenders uppercase (`T` man, `K` king). Copenhagen's start is
//!   `/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/`.
//! * Move: `from-to`, then `x` and the captured squares joined by `/` (`e5-e8xe9/d8`). Reading
//!   also accepts one `x` per capture (`e5-e8xe9xd8`), as some game collections write them.
//! * Rules string: space-separated `key:value` pairs (keys in `rules.rs`), `dim:` first and
//!   `start:` required, every other key defaulting to [`Rules::default_for`]'s value (OpenTafl's
//!   documented defaults) and omitted when printed at its default. Every key and letter means
//!   what it means in OpenTafl; our extensions are values OpenTafl does not have (`ks:a`,
//!   `tfr:c`). OpenTafl switches for pieces, squares and moves we do not have (knights,
//!   commanders, jumps, berserk, fortresses) are read when they change nothing here and
//!   refused, with the switch named, when they would.
//! * Game record: `[tag:value]` header lines, then numbered move pairs `1. d1-d3 h6-h9`.
//!
//! Every error names the 1-based character column of the problem in the text it was given.

use std::fmt;

use super::Tafl;
use super::layout::Layout;
use super::rules::{Escape, KingStrength, PieceSet, Repetition, Rules, Shieldwall};
use super::square::{MAX_DIM, Move, Piece, Side, Square};

/// Notation that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    /// 1-based character column where the problem is.
    pub column: usize,
    pub message: String,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for NotationError {}

fn error<T>(column: usize, message: impl Into<String>) -> Result<T, NotationError> {
    Err(NotationError {
        column,
        message: message.into(),
    })
}

/// Shifts an error found in a piece of text to its place in the enclosing text.
fn offset(e: NotationError, by: usize) -> NotationError {
    NotationError {
        column: e.column + by,
        ..e
    }
}

// ---------------------------------------------------------------------------------------------
// Positions

/// Reads a position; its size is the number of ranks.
pub fn parse_position(text: &str) -> Result<Layout, NotationError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.first() != Some(&'/') {
        return error(1, "a position starts with '/'");
    }
    let mut ranks: Vec<Vec<(usize, Option<Piece>)>> = vec![Vec::new()];
    let mut i = 1;
    while i < chars.len() {
        let c = chars[i];
        let column = i + 1;
        match c {
            '/' => ranks.push(Vec::new()),
            '0'..='9' => {
                let start = i;
                while i + 1 < chars.len() && chars[i + 1].is_ascii_digit() {
                    i += 1;
                }
                let run: String = chars[start..=i].iter().collect();
                let n: usize = run.parse().map_err(|_| NotationError {
                    column: start + 1,
                    message: format!("bad count '{run}'"),
                })?;
                if n == 0 || n > usize::from(MAX_DIM) {
                    return error(
                        start + 1,
                        format!("count {n} of empty squares is out of range"),
                    );
                }
                let rank = ranks.last_mut().expect("at least one rank");
                rank.extend(std::iter::repeat_n((start + 1, None), n));
            }
            't' => ranks
                .last_mut()
                .expect("rank")
                .push((column, Some(Piece::Attacker))),
            'T' => ranks
                .last_mut()
                .expect("rank")
                .push((column, Some(Piece::Defender))),
            'K' => ranks
                .last_mut()
                .expect("rank")
                .push((column, Some(Piece::King))),
            'c' | 'n' | 'k' | 'm' | 'g' | 'C' | 'N' | 'M' | 'G' => {
                return error(
                    column,
                    format!(
                        "OpenTafl's piece '{c}' (commander, knight, attacking king, mercenary \
                         or guard) is not supported: only t, T and K"
                    ),
                );
            }
            other => {
                return error(
                    column,
                    format!("unknown piece '{other}' (t attacker, T defender, K king)"),
                );
            }
        }
        i += 1;
    }
    if chars.last() != Some(&'/') {
        return error(chars.len() + 1, "a position ends with '/'");
    }
    ranks.pop(); // the empty remainder after the closing '/'
    let dim = ranks.len();
    if !(5..=usize::from(MAX_DIM)).contains(&dim) {
        return error(1, format!("{dim} ranks; a board has 5 to {MAX_DIM}"));
    }
    let mut layout = Layout::empty(dim as u8);
    let mut rank_start = 2;
    for (r, rank) in ranks.iter().enumerate() {
        if rank.len() != dim {
            let column = rank.last().map_or(rank_start, |&(c, _)| c);
            return error(
                column,
                format!(
                    "rank {} has {} squares on a {dim}x{dim} board",
                    r + 1,
                    rank.len()
                ),
            );
        }
        for (file, &(_, piece)) in rank.iter().enumerate() {
            layout.set(Square::at(file as u8, r as u8, dim as u8), piece);
        }
        rank_start = rank.last().map_or(rank_start, |&(c, _)| c + 2);
    }
    Ok(layout)
}

pub fn print_position(layout: &Layout) -> String {
    let dim = layout.dim();
    let mut out = String::from("/");
    for rank in 0..dim {
        let mut empty = 0;
        for file in 0..dim {
            let c = match layout.get(Square::at(file, rank, dim)) {
                None => {
                    empty += 1;
                    continue;
                }
                Some(Piece::Attacker) => 't',
                Some(Piece::Defender) => 'T',
                Some(Piece::King) => 'K',
            };
            if empty > 0 {
                out.push_str(&empty.to_string());
                empty = 0;
            }
            out.push(c);
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        out.push('/');
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Moves

/// Reads a square name such as `e5` on a `dim` x `dim` board.
pub fn parse_square(text: &str, dim: u8) -> Result<Square, NotationError> {
    let mut chars = text.chars();
    let Some(letter) = chars.next() else {
        return error(1, "missing square");
    };
    if !letter.is_ascii_lowercase() || (letter as u8 - b'a') >= dim {
        let last = (b'a' + dim - 1) as char;
        return error(1, format!("file '{letter}' is not between a and {last}"));
    }
    let digits = chars.as_str();
    let rank: u8 = match digits.parse() {
        Ok(r) if (1..=dim).contains(&r) => r,
        _ => return error(2, format!("rank '{digits}' is not between 1 and {dim}")),
    };
    Ok(Square::at(letter as u8 - b'a', rank - 1, dim))
}

/// A move as written, with the captures it claims.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    pub mv: Move,
    pub captures: Vec<Square>,
}

/// Reads `from-to` with optional captures (`xa1/b2` or `xa1xb2`).
pub fn parse_move(text: &str, dim: u8) -> Result<MoveText, NotationError> {
    let (head, tail) = match text.find('x') {
        Some(i) => (&text[..i], Some((i, &text[i + 1..]))),
        None => (text, None),
    };
    let Some(dash) = head.find('-') else {
        return error(
            1,
            format!("'{text}' is not a move: expected from-to, like e5-e8"),
        );
    };
    let from = parse_square(&head[..dash], dim)?;
    let to = parse_square(&head[dash + 1..], dim).map_err(|e| offset(e, dash + 1))?;
    let mut captures = Vec::new();
    if let Some((x, list)) = tail {
        let mut column = x + 1;
        for part in list.split(['/', 'x']) {
            let sq = parse_square(part, dim).map_err(|e| offset(e, column))?;
            // Collections sometimes write a capture twice; the square is captured once.
            if !captures.contains(&sq) {
                captures.push(sq);
            }
            column += part.len() + 1;
        }
        captures.sort();
    }
    Ok(MoveText {
        mv: Move { from, to },
        captures,
    })
}

/// Writes a move with the men it captured (`e5-e8xe9/d8`).
pub fn print_move(mv: Move, captured: &[Square], dim: u8) -> String {
    let mut out = format!("{}-{}", mv.from.name(dim), mv.to.name(dim));
    if !captured.is_empty() {
        let names: Vec<String> = captured.iter().map(|sq| sq.name(dim)).collect();
        out.push('x');
        out.push_str(&names.join("/"));
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Rules strings

impl Rules {
    /// The value every rules-string key takes when it is omitted, on a board with `start`: the
    /// defaults of OpenTafl's notation spec, so that its strings read the same here (notably
    /// `surf:y`, surrounding fatal, which OpenTafl leaves out of its strings).
    pub fn default_for(start: Layout) -> Rules {
        Rules {
            name: String::new(),
            attackers_first: true,
            escape: Escape::Corner,
            corner_block: 1,
            throne: true,
            king_armed: true,
            king_strength: KingStrength::Strong,
            corner_hostile: PieceSet::ALL,
            throne_hostile: PieceSet::ATTACKERS,
            empty_throne_hostile: PieceSet::ALL,
            throne_passable: PieceSet::ALL,
            throne_stoppable: PieceSet::KING,
            corner_passable: PieceSet::KING,
            corner_stoppable: PieceSet::KING,
            shieldwall: Shieldwall::None,
            shieldwall_flank: true,
            edge_fort: false,
            encirclement: true,
            repetition: Repetition::Draw,
            linnaean: false,
            speed: [None; 3],
            start,
        }
    }
}

fn yes_no(v: bool) -> &'static str {
    if v { "y" } else { "n" }
}

fn piece_list(set: PieceSet) -> String {
    set.iter()
        .map(|p| match p {
            Piece::Attacker => 't',
            Piece::Defender => 'T',
            Piece::King => 'K',
        })
        .collect()
}

/// The squares of the corner blocks of side `block` (none for 0), in square order.
fn corner_squares(rules: &Rules, block: u8) -> Vec<Square> {
    let probe = Rules {
        corner_block: block,
        ..Rules::default_for(Layout::empty(rules.dim()))
    };
    let dim = rules.dim();
    (0..usize::from(dim) * usize::from(dim))
        .map(Square::from_index)
        .filter(|&sq| block > 0 && probe.is_corner(sq))
        .collect()
}

fn print_square_list(squares: &[Square], dim: u8) -> String {
    squares
        .iter()
        .map(|sq| format!("{},", sq.name(dim)))
        .collect()
}

fn escape_letter(e: Escape) -> &'static str {
    match e {
        Escape::Edge => "e",
        Escape::Corner => "c",
    }
}

fn strength_letter(k: KingStrength) -> &'static str {
    match k {
        KingStrength::Strong => "y",
        KingStrength::Weak => "n",
        KingStrength::StrongAtThrone => "c",
        KingStrength::Middleweight => "m",
        KingStrength::ThroneOrTwoAttackers => "a",
    }
}

fn wall_letter(s: Shieldwall) -> &'static str {
    match s {
        Shieldwall::None => "n",
        Shieldwall::Weak => "w",
        Shieldwall::Strong => "s",
    }
}

fn repetition_letter(r: Repetition) -> &'static str {
    match r {
        Repetition::Ignored => "i",
        Repetition::Draw => "d",
        Repetition::MoverLoses => "w",
        Repetition::MoverWins => "l",
        Repetition::DefendersLose => "c",
    }
}

/// OpenTafl's kinds in the order of its per-kind lists (`spd`): attacker man, commander,
/// knight, king, mercenary, guard, then the same for the defenders. Kinds we do not have are
/// `None`.
const OPENTAFL_KINDS: [Option<Piece>; 12] = [
    Some(Piece::Attacker),
    None,
    None,
    None,
    None,
    None,
    Some(Piece::Defender),
    None,
    None,
    Some(Piece::King),
    None,
    None,
];

/// `spd`'s value: one number when every kind has the same limit (`-1` for none), else one per
/// OpenTafl kind.
fn speed_list(speed: [Option<u8>; 3]) -> String {
    let text = |limit: Option<u8>| limit.map_or("-1".to_string(), |n| n.to_string());
    if speed.iter().all(|&s| s == speed[0]) {
        return text(speed[0]);
    }
    OPENTAFL_KINDS
        .iter()
        .map(|kind| format!("{},", text(kind.and_then(|p| speed[p.index()]))))
        .collect()
}

/// Writes a rules string: `dim` (first, as OpenTafl requires), `name` (if any), every key that
/// differs from its default, and `start` (last).
pub fn print_rules(rules: &Rules) -> String {
    let d = Rules::default_for(rules.start.clone());
    let mut parts = vec![format!("dim:{}", rules.dim())];
    if !rules.name.is_empty() {
        parts.push(format!("name:{}", rules.name));
    }
    let mut flag = |key: &str, value: String, default: String| {
        if value != default {
            parts.push(format!("{key}:{value}"));
        }
    };
    let yn = |v: bool| yes_no(v).to_string();
    flag("atkf", yn(rules.attackers_first), yn(d.attackers_first));
    flag(
        "esc",
        escape_letter(rules.escape).into(),
        escape_letter(d.escape).into(),
    );
    let dim = rules.dim();
    flag(
        "cor",
        print_square_list(&corner_squares(rules, rules.corner_block), dim),
        print_square_list(&corner_squares(rules, d.corner_block), dim),
    );
    // No throne: OpenTafl writes an empty list of centre squares.
    let centre = |throne: bool| match throne {
        true => print_square_list(&[Square::at(dim / 2, dim / 2, dim)], dim),
        false => String::new(),
    };
    flag("cen", centre(rules.throne), centre(d.throne));
    flag("ka", yn(rules.king_armed), yn(d.king_armed));
    flag(
        "ks",
        strength_letter(rules.king_strength).into(),
        strength_letter(d.king_strength).into(),
    );
    let sets = [
        ("corh", rules.corner_hostile, d.corner_hostile),
        ("cenh", rules.throne_hostile, d.throne_hostile),
        ("cenhe", rules.empty_throne_hostile, d.empty_throne_hostile),
        ("cenp", rules.throne_passable, d.throne_passable),
        ("cens", rules.throne_stoppable, d.throne_stoppable),
        ("corp", rules.corner_passable, d.corner_passable),
        ("cors", rules.corner_stoppable, d.corner_stoppable),
    ];
    for (key, value, default) in sets {
        flag(key, piece_list(value), piece_list(default));
    }
    flag(
        "sw",
        wall_letter(rules.shieldwall).into(),
        wall_letter(d.shieldwall).into(),
    );
    flag("swf", yn(rules.shieldwall_flank), yn(d.shieldwall_flank));
    flag("efe", yn(rules.edge_fort), yn(d.edge_fort));
    flag("surf", yn(rules.encirclement), yn(d.encirclement));
    flag(
        "tfr",
        repetition_letter(rules.repetition).into(),
        repetition_letter(d.repetition).into(),
    );
    flag("linc", yn(rules.linnaean), yn(d.linnaean));
    flag("spd", speed_list(rules.speed), speed_list(d.speed));
    parts.push(format!("start:{}", print_position(&rules.start)));
    parts.join(" ")
}

/// Reads a rules string. Unknown keys and bad values are errors, so a typo never silently
/// changes the game; OpenTafl switches we cannot play are refused with the switch named.
pub fn parse_rules(text: &str) -> Result<Rules, NotationError> {
    // Find the start layout first: every other key is relative to its defaults.
    let mut fields = Vec::new();
    let mut column = 1;
    for word in text.split(' ') {
        if !word.is_empty() {
            let Some((key, value)) = word.split_once(':') else {
                return error(column, format!("'{word}' is not a key:value pair"));
            };
            fields.push((column, key, value));
        }
        column += word.chars().count() + 1;
    }
    let Some(&(start_column, _, start)) = fields.iter().find(|(_, k, _)| *k == "start") else {
        return error(1, "the rules string has no start: position");
    };
    let start = parse_position(start).map_err(|e| offset(e, start_column + 5))?;
    let dim = start.dim();
    let mut rules = Rules::default_for(start);
    for (column, key, value) in fields {
        let at = column + key.len() + 1;
        let bad = |what: &str| error(at, format!("{key}:{value}: {what}"));
        let unsupported =
            |what: &str| error(column, format!("{key}:{value} is not supported: {what}"));
        let yn = |v: &str| match v {
            "y" => Ok(true),
            "n" => Ok(false),
            _ => error(at, format!("{key} takes y or n, not '{v}'")),
        };
        // OpenTafl's piece-type letters; knights, commanders, mercenaries, guards and the
        // attacking king never stand on our boards, so what a list says about them is moot.
        let pieces = |v: &str| {
            let mut list = Vec::new();
            for (i, c) in v.chars().enumerate() {
                match c {
                    't' => list.push(Piece::Attacker),
                    'T' => list.push(Piece::Defender),
                    'K' => list.push(Piece::King),
                    'c' | 'n' | 'k' | 'm' | 'g' | 'C' | 'N' | 'M' | 'G' => {}
                    other => {
                        return error(at + i, format!("'{other}' is not an OpenTafl piece letter"));
                    }
                }
            }
            Ok(PieceSet::of(&list))
        };
        let squares = |v: &str| {
            let mut list = Vec::new();
            let mut i = at;
            for part in v.split(',') {
                if !part.is_empty() {
                    list.push(parse_square(part, dim).map_err(|e| offset(e, i - 1))?);
                }
                i += part.len() + 1;
            }
            list.sort();
            list.dedup();
            Ok::<_, NotationError>(list)
        };
        let jump = |v: &str| match v {
            "n" | "r" | "j" | "c" => Ok(()),
            _ => error(at, format!("{key}:{value}: expected n, r, j or c")),
        };
        match key {
            "start" => {}
            "name" => rules.name = value.to_string(),
            "dim" => {
                if value.parse::<u8>().ok() != Some(dim) {
                    return bad(&format!("the start position is {dim}x{dim}"));
                }
            }
            "atkf" => rules.attackers_first = yn(value)?,
            "esc" => {
                rules.escape = match value {
                    "e" => Escape::Edge,
                    "c" => Escape::Corner,
                    _ => return bad("expected e (edge) or c (corner)"),
                }
            }
            "cor" => {
                let listed = squares(value)?;
                rules.corner_block = match (0..=3).find(|&b| corner_squares(&rules, b) == listed) {
                    Some(block) => block,
                    None => {
                        return unsupported(
                            "corners must be the four corner squares, a square block in each \
                             corner, or none",
                        );
                    }
                }
            }
            "cen" => {
                let centre = Square::at(dim / 2, dim / 2, dim);
                rules.throne = match squares(value)?.as_slice() {
                    [] => false,
                    [sq] if *sq == centre => true,
                    _ => return unsupported("the throne must be the centre square, or none"),
                }
            }
            "ka" => {
                rules.king_armed = match value {
                    "y" => true,
                    "n" => false,
                    "h" | "a" => {
                        return unsupported("a king armed only as hammer or only as anvil");
                    }
                    _ => return bad("expected y or n"),
                }
            }
            "ks" => {
                rules.king_strength = match value {
                    "y" | "s" => KingStrength::Strong,
                    "n" | "w" => KingStrength::Weak,
                    "c" => KingStrength::StrongAtThrone,
                    "m" => KingStrength::Middleweight,
                    "a" => KingStrength::ThroneOrTwoAttackers,
                    _ => return bad("expected y (strong), n (weak), c, m or a"),
                }
            }
            "corh" => rules.corner_hostile = pieces(value)?,
            "cenh" => rules.throne_hostile = pieces(value)?,
            "cenhe" => rules.empty_throne_hostile = pieces(value)?,
            "cenp" => rules.throne_passable = pieces(value)?,
            "cens" => rules.throne_stoppable = pieces(value)?,
            "corp" => rules.corner_passable = pieces(value)?,
            "cors" => rules.corner_stoppable = pieces(value)?,
            "sw" => {
                rules.shieldwall = match value {
                    "n" => Shieldwall::None,
                    "w" => Shieldwall::Weak,
                    "s" => Shieldwall::Strong,
                    _ => return bad("expected n, w or s"),
                }
            }
            "swf" => rules.shieldwall_flank = yn(value)?,
            "efe" => rules.edge_fort = yn(value)?,
            "surf" => rules.encirclement = yn(value)?,
            "tfr" => {
                rules.repetition = match value {
                    "i" => Repetition::Ignored,
                    "d" => Repetition::Draw,
                    "w" => Repetition::MoverLoses,
                    "l" => Repetition::MoverWins,
                    "c" => Repetition::DefendersLose,
                    _ => return bad("expected i, d, w, l or c"),
                }
            }
            "linc" => rules.linnaean = yn(value)?,
            // Knights and commanders cannot stand on our boards, so how they jump is moot.
            "nj" | "cj" => jump(value)?,
            "kj" => {
                jump(value)?;
                if value != "n" {
                    return unsupported("the king does not jump here");
                }
            }
            "ber" => match value {
                "n" => {}
                "c" | "m" => return unsupported("berserk moves"),
                _ => return bad("expected n, c or m"),
            },
            "spd" => {
                let limits = value
                    .split(',')
                    .filter(|v| !v.is_empty())
                    .map(|v| match v.parse::<i32>() {
                        Ok(-1) => Ok(None),
                        Ok(n @ 1..=255) => Ok(Some(n as u8)),
                        _ => error(at, format!("spd:{value}: '{v}' is not -1 or a speed")),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                rules.speed = match limits[..] {
                    [all] => [all; 3],
                    _ if limits.len() == OPENTAFL_KINDS.len() => {
                        let mut speed = [None; 3];
                        for (kind, limit) in OPENTAFL_KINDS.iter().zip(&limits) {
                            if let Some(piece) = kind {
                                speed[piece.index()] = *limit;
                            }
                        }
                        speed
                    }
                    // OpenTafl's reader drops the two per-side values, so say what we cannot.
                    [_, _] => return unsupported("speed limits by side"),
                    _ => return bad("expected one speed, or one for each of OpenTafl's 12 kinds"),
                };
            }
            "afor" | "dfor" => {
                if !squares(value)?.is_empty() {
                    return unsupported("fortress squares");
                }
            }
            // Fortress squares are refused above, so what these say about them changes nothing.
            "aforh" | "dforh" | "aforp" | "dforp" | "afors" | "dfors" | "aforre" | "dforre" => {
                pieces(value)?;
            }
            "corre" | "cenre" => {
                if pieces(value)? != PieceSet::ALL {
                    return unsupported("pieces that may not come back to a square they left");
                }
            }
            _ => return error(column, format!("unknown rules key '{key}'")),
        }
    }
    rules.validate().map_err(|e| NotationError {
        column: 1,
        message: e.0,
    })?;
    Ok(rules)
}

// ---------------------------------------------------------------------------------------------
// Game records

/// Exports a game as an OpenTafl-style record: headers for the rules, the start position when it
/// is not the rules' own, the result and its reason, then the numbered moves.
pub fn export_record(game: &Tafl) -> String {
    let rules = game.rules();
    let dim = rules.dim();
    let mut out = String::new();
    if !rules.name.is_empty() {
        out.push_str(&format!("[variant:{}]\n", rules.name));
    }
    out.push_str(&format!("[rules:{}]\n", print_rules(rules)));
    let (start, first) = game.start();
    let default_first = if rules.attackers_first {
        Side::Attackers
    } else {
        Side::Defenders
    };
    if start != rules.start || first != default_first {
        out.push_str(&format!(
            "[position:{}]\n[first:{first}]\n",
            print_position(&start)
        ));
    }
    let result = match game.verdict() {
        None => "ongoing".to_string(),
        Some(v) => match v.winner {
            Some(side) => format!("{side} win"),
            None => "draw".to_string(),
        },
    };
    out.push_str(&format!("[result:{result}]\n"));
    if let Some(v) = game.verdict() {
        out.push_str(&format!("[termination:{}]\n", v.reason.code()));
    }
    let moves: Vec<String> = game
        .moves()
        .iter()
        .map(|m| print_move(m.mv, &m.captured, dim))
        .collect();
    for (n, pair) in moves.chunks(2).enumerate() {
        out.push_str(&format!("{}. {}\n", n + 1, pair.join(" ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tafl::variants;

    const COPENHAGEN_START: &str =
        "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

    #[test]
    fn copenhagen_start_position_round_trips() {
        let layout = parse_position(COPENHAGEN_START).unwrap();
        assert_eq!(layout, variants::preset("copenhagen").unwrap().start);
        assert_eq!(print_position(&layout), COPENHAGEN_START);
    }

    #[test]
    fn position_errors_name_the_column() {
        let e = parse_position("/3ttqtt3/").unwrap_err();
        assert_eq!(e.column, 5);
        assert!(e.message.contains("'q'"), "{e}");
        let e = parse_position("3ttttt3/").unwrap_err();
        assert_eq!(e.column, 1);
        let bad_rank = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t4/3ttttt3/";
        let e = parse_position(bad_rank).unwrap_err();
        assert!(e.message.contains("rank 10 has 10 squares"), "{e}");
    }

    #[test]
    fn moves_parse_and_print() {
        let m = parse_move("e5-e8xe9/d8", 11).unwrap();
        assert_eq!(m.mv.from, Square::at(4, 4, 11));
        assert_eq!(m.mv.to, Square::at(4, 7, 11));
        assert_eq!(m.captures, vec![Square::at(3, 7, 11), Square::at(4, 8, 11)]);
        assert_eq!(print_move(m.mv, &m.captures, 11), "e5-e8xd8/e9");
        let repeated = parse_move("e7-k7xk6xk6", 11).unwrap();
        assert_eq!(repeated.captures, vec![Square::at(10, 5, 11)]);
        assert_eq!(print_move(m.mv, &[], 11), "e5-e8");
    }

    #[test]
    fn move_errors_name_the_column() {
        assert_eq!(parse_move("e5-z8", 11).unwrap_err().column, 4);
        assert_eq!(parse_move("e5-e12", 11).unwrap_err().column, 5);
        assert_eq!(parse_move("e5e8", 11).unwrap_err().column, 1);
        assert_eq!(parse_move("e5-e8xe9/q1", 11).unwrap_err().column, 10);
    }

    #[test]
    fn every_preset_rules_string_round_trips() {
        for name in variants::NAMES {
            let rules = variants::preset(name).unwrap();
            let text = print_rules(&rules);
            assert_eq!(parse_rules(&text).unwrap(), rules, "{text}");
        }
    }

    /// The defaults of OpenTafl's notation spec, and its own example strings: Fetlar ("all
    /// others as default": corner escape, surrounding fatal, armed strong king) and Brandub
    /// (`ks:n`, empty throne lists).
    #[test]
    fn omitted_keys_take_opentafl_defaults() {
        let fetlar = parse_rules(&format!("dim:11 atkf:n start:{COPENHAGEN_START}")).unwrap();
        assert!(fetlar.encirclement, "surf defaults to y");
        assert_eq!(fetlar.escape, Escape::Corner);
        assert_eq!(fetlar.repetition, Repetition::Draw);
        assert!(fetlar.king_armed);
        assert_eq!(fetlar.king_strength, KingStrength::Strong);
        assert_eq!(fetlar.shieldwall, Shieldwall::None);
        assert!(!fetlar.edge_fort && !fetlar.attackers_first);
        assert_eq!(fetlar.corner_hostile, PieceSet::ALL);
        assert_eq!(fetlar.throne_hostile, PieceSet::ATTACKERS);
        assert_eq!(fetlar.empty_throne_hostile, PieceSet::ALL);
        assert_eq!(fetlar.throne_passable, PieceSet::ALL);
        assert_eq!(fetlar.throne_stoppable, PieceSet::KING);
        assert_eq!(fetlar.corner_passable, PieceSet::KING);
        assert_eq!(fetlar.corner_stoppable, PieceSet::KING);

        let brandub =
            parse_rules("dim:7 ks:n cenhe: cenh: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/").unwrap();
        assert_eq!(brandub.king_strength, KingStrength::Weak);
        assert_eq!(brandub.throne_hostile, PieceSet::NONE);
        assert!(brandub.encirclement);
        let no_surf = parse_rules("dim:7 surf:n start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/").unwrap();
        assert!(!no_surf.encirclement);
        // Printed the way OpenTafl prints: ks:n, surf only when off.
        assert!(print_rules(&no_surf).contains(" surf:n "));
        assert!(
            print_rules(&brandub).contains(" ks:n "),
            "{}",
            print_rules(&brandub)
        );
        assert!(!print_rules(&fetlar).contains("surf"));
    }

    #[test]
    fn rules_string_errors_name_the_column() {
        let text = format!("dim:11 esc:q start:{COPENHAGEN_START}");
        let e = parse_rules(&text).unwrap_err();
        assert_eq!(e.column, 12);
        let e = parse_rules(&format!("dim:11 frob:y start:{COPENHAGEN_START}")).unwrap_err();
        assert_eq!(e.column, 8);
        assert!(parse_rules("dim:11").unwrap_err().message.contains("start"));
        let e = parse_rules("start:/3ttttt3/").unwrap_err();
        assert!(e.column >= 7, "{e}");
    }

    #[test]
    fn record_lists_moves_in_numbered_pairs() {
        let mut game = Tafl::preset("brandubh").unwrap();
        for text in ["d7-f7", "d5-f5", "a4-a6"] {
            game.play_move(parse_move(text, 7).unwrap().mv).unwrap();
        }
        let record = export_record(&game);
        assert!(
            record.starts_with("[variant:brandubh]\n[rules:dim:7 name:brandubh "),
            "{record}"
        );
        assert!(
            record.contains("[result:ongoing]\n1. d7-f7 d5-f5\n2. a4-a6\n"),
            "{record}"
        );
    }
}
