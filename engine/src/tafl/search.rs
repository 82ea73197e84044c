//! The tafl AI: an alpha-beta search over the engine's own rules, generic over the bitboard word
//! so it plays every board size.
//!
//! # The search
//!
//! Negamax with principal variation search (fail-soft), iterative deepening from depth 1, and:
//!
//! * a **transposition table** keyed on the position's incremental Zobrist hash: a fixed number
//!   of entries (a power of two) allocated per search, each holding the full key, the depth, the
//!   bound type (exact, lower, upper), the score (mate scores stored relative to the node) and the
//!   best move; an entry is replaced unless it holds the same position searched deeper;
//! * **move ordering**: the table's move, then moves that win on the spot or capture (a man
//!   sandwiched against a friend or a hostile square), king moves that open an escape line, two
//!   killer moves per ply, and the history heuristic;
//! * **game-ending moves first**: before searching, every root move is tried and one that wins
//!   (escape, king capture, exit fort, encirclement, the opponent left without moves, a
//!   repetition the rules award to the mover) is played at once; inside the tree every node first
//!   asks whether the side to move can escape or capture the king with its next move and scores
//!   it as a win without searching;
//! * a **quiescence** step at the horizon: a position where the side to move could be beaten next
//!   move (the king has an open line to an escape square, or an attacker move would capture him)
//!   is not judged statically; every answer is tried (up to four plies of such threats), so a
//!   lost position is seen as lost and a parried threat as parried;
//! * **repetition** along the search path: the hashes since the last capture (the game's history,
//!   replayed from its record, then the path searched), and the rules' [`Repetition`] outcome when
//!   a move makes a position occur for the third time (draw, the mover wins or loses, Copenhagen's
//!   defenders lose);
//! * late move reductions for quiet moves late in the order (switched off by
//!   [`SearchParams::reductions`], so that a fixed-depth search is an exact minimax);
//! * the [`Budget`]: the search stops once it has visited `max_nodes` nodes, or when `stop()`
//!   (asked every 256 nodes) returns true. The move of the deepest finished iteration is played
//!   (or of the unfinished one, when its first move has been searched).
//!
//! Scores are from the side to move, in hundredths of a defending man (see `eval.rs` for the
//! evaluation terms); a win in `n` plies scores `MATE - n`, a loss `-(MATE - n)`.
//!
//! The expected line is the triangular principal variation table's (each node that raises alpha
//! copies its child's line behind its move), replayed on the game so that it stops where a move
//! would be illegal or the game is over (by repetition too); when the side to move at its end
//! can win on the spot (which the search scores without a move), that move ends it.
//!
//! An analysis ([`expected_score`]) reads a score as an expected result: 1 for a win found by
//! the search, 0 for a loss, else the logistic `1 / (1 + e^(-score / 200))`, so that a lead of
//! two defending men is worth 0.73 and an even position 0.5.
//!
//! # Levels
//!
//! | level | play |
//! |---|---|
//! | 1 | a random legal move, but a move that wins on the spot is always taken |
//! | 2 | a search to depth 1 (with its threat quiescence; at most 20,000 nodes) with noise of up to ±0.4 men on each root move |
//! | 3 | iterative deepening within 10,000 nodes |
//! | 4 | iterative deepening within 100,000 nodes |
//! | 5 | iterative deepening within 1,000,000 nodes |
//!
//! Levels 3 to 5 each search ten times the nodes of the one below, so that each beats the one
//! below in most games; level 2 looks only one move ahead, so that level 3 beats it (the
//! measurements are in `docs/rules/tafl.md`, "AI"). Level 5 has a cap of its own so that its
//! strength does not depend on how busy the machine is; a server's time limit may still cut it
//! short.
//!
//! Every level also keeps to the caller's [`Budget`] (the smaller limit wins), plays an immediate
//! win when there is one, and returns only legal moves. Randomness (level 1's choice, level 2's
//! noise) comes from the AI's own [`MatchRng`].

use super::bitboard::Bits;
use super::board::Board;
use super::capture::Captures;
use super::eval::{Eval, capture_squares, escape_approaches, king_can_escape, king_capture};
use super::game::TaflGame;
use super::position::Position;
use super::rules::Repetition;
use super::square::{Move, Side, Square};
use crate::ai::{Budget, Level};
use crate::rng::MatchRng;

/// The score of a win on the spot; a win `n` plies ahead scores `MATE - n`.
pub const MATE: i32 = 1_000_000;
/// Scores beyond this are wins or losses found by the search.
pub const WIN_THRESHOLD: i32 = MATE - 1_000;
const INF: i32 = MATE + 1;
/// The deepest the search goes, quiescence included.
const MAX_PLY: usize = 96;
/// The deepest iterative deepening goes.
pub const MAX_DEPTH: u32 = 64;
/// Plies of threat answers the quiescence step follows.
const QUIESCENCE: u32 = 4;
/// How often (in nodes) `Budget::stop` is asked.
const STOP_INTERVAL: u64 = 256;

/// How one search is run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// The deepest iteration, in plies (at most [`MAX_DEPTH`]).
    pub max_depth: u32,
    /// The level's own node limit; the search keeps to the smaller of this and the budget's.
    pub max_nodes: u64,
    /// Transposition table entries (rounded down to a power of two); 0 runs without a table.
    pub tt_entries: usize,
    /// Each root move's score is moved by a random amount in `-root_noise..=root_noise`.
    pub root_noise: i32,
    /// Late move reductions. Without them a search to a fixed depth is an exact minimax.
    pub reductions: bool,
}

impl SearchParams {
    /// A full-strength search to `max_depth` within `max_nodes`, with a table sized to match.
    pub fn new(max_depth: u32, max_nodes: u64) -> SearchParams {
        SearchParams {
            max_depth: max_depth.min(MAX_DEPTH),
            max_nodes,
            tt_entries: table_size(max_nodes),
            root_noise: 0,
            reductions: true,
        }
    }

    /// The search a level runs (levels 2 to 5; level 1 does not search).
    pub fn for_level(level: Level) -> SearchParams {
        match level.get() {
            0..=2 => SearchParams {
                root_noise: 40,
                ..SearchParams::new(1, 20_000)
            },
            3 => SearchParams::new(MAX_DEPTH, 10_000),
            4 => SearchParams::new(MAX_DEPTH, 100_000),
            _ => SearchParams::new(MAX_DEPTH, 1_000_000),
        }
    }
}

/// A table about half the node budget, between 2^10 and 2^20 entries (24 bytes each).
fn table_size(max_nodes: u64) -> usize {
    let wanted = (max_nodes / 2).clamp(1 << 10, 1 << 20);
    1 << (63 - wanted.leading_zeros())
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReport {
    /// The move to play; `None` only when the game is over.
    pub best: Option<Move>,
    /// Its score for the side to move (see the module documentation).
    pub score: i32,
    /// The deepest iteration finished (1 for an immediate win found before searching).
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// The expected line of play, starting with `best`.
    pub pv: Vec<Move>,
}

/// Whether a score is a win or loss found by the search rather than an estimate.
pub fn is_decisive(score: i32) -> bool {
    score.abs() > WIN_THRESHOLD
}

/// The score at which the expected result is 0.73 (1 / (1 + e^-1)): two defending men.
const SCORE_SCALE: f64 = 200.0;

/// A search score for the side to move as its expected result, 0 (lost) to 1 (won): see the
/// module documentation.
pub fn expected_score(score: i32) -> f64 {
    if is_decisive(score) {
        return if score > 0 { 1.0 } else { 0.0 };
    }
    1.0 / (1.0 + (-f64::from(score) / SCORE_SCALE).exp())
}

/// Level play: see the module documentation.
pub(super) fn choose<B: Bits>(
    game: &TaflGame<B>,
    level: Level,
    budget: &Budget<'_>,
    rng: &mut MatchRng,
) -> Option<Move> {
    if level.get() <= 1 {
        let moves = game.legal_moves();
        let params = SearchParams {
            tt_entries: 0,
            ..SearchParams::new(1, 1)
        };
        let mut searcher = Searcher::new(game, &params, budget);
        if let Some((mv, _)) = searcher.immediate_win(game.position(), &moves) {
            return Some(mv);
        }
        return rng.choose(&moves).copied();
    }
    search(game, &SearchParams::for_level(level), budget, rng).best
}

/// Searches the game's current position.
pub(super) fn search<B: Bits>(
    game: &TaflGame<B>,
    params: &SearchParams,
    budget: &Budget<'_>,
    rng: &mut MatchRng,
) -> SearchReport {
    let mut report = SearchReport {
        best: None,
        score: 0,
        depth: 0,
        nodes: 0,
        pv: Vec::new(),
    };
    let moves = game.legal_moves();
    if moves.is_empty() {
        return report;
    }
    let root = *game.position();
    let mut searcher = Searcher::new(game, params, budget);
    if let Some((mv, score)) = searcher.immediate_win(&root, &moves) {
        report.best = Some(mv);
        report.score = score;
        report.depth = 1;
        report.nodes = searcher.nodes;
        report.pv = vec![mv];
        return report;
    }
    let mut keys = Vec::new();
    searcher.order_keys(&root, 0, NO_MOVE, &moves, &mut keys);
    let mut ordered: Vec<(Move, i32)> = moves.into_iter().zip(keys).collect();
    ordered.sort_by_key(|&(_, key)| std::cmp::Reverse(key));
    let mut roots: Vec<RootMove> = ordered
        .into_iter()
        .map(|(mv, _)| RootMove {
            mv,
            score: -INF,
            noise: if params.root_noise > 0 {
                let span = 2 * params.root_noise.unsigned_abs() as u64 + 1;
                rng.below(span) as i32 - params.root_noise
            } else {
                0
            },
        })
        .collect();
    // Until an iteration says otherwise, the move ordering's favourite.
    report.best = Some(roots[0].mv);
    report.pv = vec![roots[0].mv];
    for depth in 1..=params.max_depth.clamp(1, MAX_DEPTH) {
        if let Some((index, score)) = searcher.root(&root, &mut roots, depth as i32) {
            report.best = Some(roots[index].mv);
            report.score = score;
            report.pv = searcher.line(game);
            if !searcher.aborted {
                report.depth = depth;
            }
            // The best move first in the next iteration, the rest by their scores.
            let best = roots.remove(index);
            roots.sort_by_key(|r| std::cmp::Reverse(r.score));
            roots.insert(0, best);
        }
        // A forced result is final once an iteration two plies deeper than its end confirms
        // it (reductions can make a single iteration overlook a defence).
        let settled = is_decisive(report.score)
            && MATE - report.score.abs() + 2 <= depth as i32
            && params.root_noise == 0;
        if searcher.aborted || settled {
            break;
        }
    }
    report.nodes = searcher.nodes;
    report
}

struct RootMove {
    mv: Move,
    score: i32,
    noise: i32,
}

/// A move packed into a word for the tables; `NO_MOVE` is none.
const NO_MOVE: u32 = u32::MAX;

fn pack(mv: Move) -> u32 {
    ((mv.from.index() as u32) << 16) | mv.to.index() as u32
}

fn unpack(word: u32) -> Move {
    Move {
        from: Square::from_index((word >> 16) as usize),
        to: Square::from_index((word & 0xFFFF) as usize),
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Copy, Clone, Debug)]
struct Entry {
    key: u64,
    mv: u32,
    score: i32,
    depth: i16,
    bound: Bound,
}

impl Default for Entry {
    fn default() -> Entry {
        Entry {
            key: 0,
            mv: NO_MOVE,
            score: 0,
            depth: -1,
            bound: Bound::Upper,
        }
    }
}

/// The transposition table: one entry per slot, indexed by the low bits of the hash.
struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    fn new(entries: usize) -> Table {
        let size = if entries == 0 {
            0
        } else {
            1 << (usize::BITS - 1 - entries.leading_zeros())
        };
        Table {
            entries: vec![Entry::default(); size],
            mask: size.wrapping_sub(1),
        }
    }

    fn probe(&self, key: u64) -> Option<&Entry> {
        if self.entries.is_empty() {
            return None;
        }
        let entry = &self.entries[key as usize & self.mask];
        (entry.key == key && entry.depth >= 0).then_some(entry)
    }

    fn store(&mut self, key: u64, entry: Entry) {
        if self.entries.is_empty() {
            return;
        }
        let slot = &mut self.entries[key as usize & self.mask];
        if slot.key != key || entry.depth >= slot.depth {
            *slot = entry;
        }
    }
}

/// Mate scores are stored relative to the node, so that they stay right wherever the position
/// is met again.
fn to_table(score: i32, ply: usize) -> i32 {
    if score > WIN_THRESHOLD {
        score + ply as i32
    } else if score < -WIN_THRESHOLD {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > WIN_THRESHOLD {
        score - ply as i32
    } else if score < -WIN_THRESHOLD {
        score + ply as i32
    } else {
        score
    }
}

// Move ordering keys.
const ORDER_TABLE: i32 = 1 << 30;
const ORDER_CAPTURE: i32 = 1 << 24;
const ORDER_ESCAPE_LINE: i32 = 1 << 23;
const ORDER_KILLER: i32 = 1 << 22;
const HISTORY_CAP: i32 = 1 << 20;

struct Searcher<'a, 'b, B: Bits> {
    board: &'a Board<B>,
    eval: Eval<B>,
    budget: &'a Budget<'b>,
    max_nodes: u64,
    nodes: u64,
    aborted: bool,
    reductions: bool,
    table: Table,
    killers: Vec<[u32; 2]>,
    history: Vec<i32>,
    squares: usize,
    /// Hashes since the last capture: the game's, then the path searched; the current node last.
    path: Vec<u64>,
    /// Where in `path` the positions since the last capture begin.
    window: usize,
    moves: Vec<Vec<Move>>,
    keys: Vec<Vec<i32>>,
    pv: Vec<[u32; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
}

impl<'a, 'b, B: Bits> Searcher<'a, 'b, B> {
    fn new(
        game: &'a TaflGame<B>,
        params: &SearchParams,
        budget: &'a Budget<'b>,
    ) -> Searcher<'a, 'b, B> {
        let board = game.board();
        let squares = usize::from(board.dim) * usize::from(board.dim);
        Searcher {
            board,
            eval: Eval::new(board),
            budget,
            max_nodes: params.max_nodes.min(budget.max_nodes),
            nodes: 0,
            aborted: false,
            reductions: params.reductions,
            table: Table::new(params.tt_entries),
            killers: vec![[NO_MOVE; 2]; MAX_PLY],
            history: vec![0; squares * squares],
            squares,
            path: game_history(game),
            window: 0,
            moves: vec![Vec::new(); MAX_PLY],
            keys: vec![Vec::new(); MAX_PLY],
            pv: vec![[NO_MOVE; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
        }
    }

    /// Counts a node; false once the budget is spent.
    #[inline]
    fn tick(&mut self) -> bool {
        if self.aborted {
            return false;
        }
        self.nodes += 1;
        if self.nodes >= self.max_nodes
            || (self.nodes.is_multiple_of(STOP_INTERVAL) && (self.budget.stop)())
        {
            self.aborted = true;
        }
        !self.aborted
    }

    /// A move from `pos` that wins at once, with its score. Not limited by the budget: it is
    /// one move generation and at most one play per move.
    fn immediate_win(&mut self, pos: &Position<B>, moves: &[Move]) -> Option<(Move, i32)> {
        moves.iter().find_map(|&mv| {
            self.nodes += 1;
            let mut child = *pos;
            let captures = child.play(self.board, mv);
            let score = self.outcome(&child, pos.turn, &captures, 0)?;
            (score > WIN_THRESHOLD).then_some((mv, score))
        })
    }

    /// The score, for `mover`, of a move that ended the game (by the rules, or by making a
    /// position occur for the third time), played at `ply` and leading to `child`.
    fn outcome(
        &self,
        child: &Position<B>,
        mover: Side,
        captures: &Captures<B>,
        ply: usize,
    ) -> Option<i32> {
        let win = MATE - (ply as i32 + 1);
        let score_for = |winner: Option<Side>| match winner {
            None => 0,
            Some(side) if side == mover => win,
            Some(_) => -win,
        };
        if let Some(verdict) = child.verdict_after(self.board, mover, captures) {
            return Some(score_for(verdict.winner));
        }
        let rule = self.board.rules.repetition;
        if rule == Repetition::Ignored || captures.men.any() || captures.king {
            return None;
        }
        // The last hash is the position the move was played from, with the other side to
        // move; positions with the child's side to move are every second one before it.
        let hash = child.hash();
        let seen = self.path[self.window..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&&h| h == hash)
            .count();
        if seen < 2 {
            return None;
        }
        let winner = match rule {
            Repetition::Ignored => return None,
            Repetition::Draw => None,
            Repetition::MoverWins => Some(mover),
            Repetition::MoverLoses => Some(mover.opponent()),
            Repetition::DefendersLose if mover == Side::Defenders => Some(Side::Attackers),
            Repetition::DefendersLose => return None,
        };
        Some(score_for(winner))
    }

    /// Whether the side to move can escape or capture the king with its next move.
    fn can_win_now(&self, pos: &Position<B>) -> bool {
        match pos.turn {
            Side::Defenders => king_can_escape(pos, self.board),
            Side::Attackers => king_capture(pos, self.board).is_some(),
        }
    }

    /// Whether the other side could escape or capture the king if it were its move.
    fn threatened(&self, pos: &Position<B>) -> bool {
        match pos.turn {
            Side::Attackers => king_can_escape(pos, self.board),
            Side::Defenders => king_capture(pos, self.board).is_some(),
        }
    }

    /// Enters a child position; returns what `leave` needs.
    #[inline]
    fn enter(&mut self, hash: u64, captured: bool) -> usize {
        let saved = self.window;
        if captured {
            self.window = self.path.len();
        }
        self.path.push(hash);
        saved
    }

    #[inline]
    fn leave(&mut self, saved: usize) {
        self.path.pop();
        self.window = saved;
    }

    /// Ordering keys for `moves` (higher first).
    fn order_keys(
        &self,
        pos: &Position<B>,
        ply: usize,
        tt: u32,
        moves: &[Move],
        keys: &mut Vec<i32>,
    ) {
        keys.clear();
        let board = self.board;
        let side = pos.turn;
        let armed_king = side == Side::Defenders && board.rules.king_armed;
        let captures = capture_squares(pos, board, side);
        let hot = match side {
            Side::Defenders => escape_approaches(pos, board) | board.escape,
            Side::Attackers => board.neighbours(pos.king),
        };
        let killers = self.killers[ply];
        for &mv in moves {
            let packed = pack(mv);
            if packed == tt {
                keys.push(ORDER_TABLE);
                continue;
            }
            let mut key = self.history[mv.from.index() * self.squares + mv.to.index()];
            let king = pos.king.has(mv.from);
            if captures.has(mv.to) && (!king || armed_king) {
                key += ORDER_CAPTURE;
            }
            if hot.has(mv.to) && (side == Side::Attackers || king) {
                key += ORDER_ESCAPE_LINE;
            }
            if packed == killers[0] {
                key += ORDER_KILLER;
            } else if packed == killers[1] {
                key += ORDER_KILLER - 1;
            }
            keys.push(key);
        }
    }

    /// Brings the best remaining move to index `i`.
    #[inline]
    fn select(moves: &mut [Move], keys: &mut [i32], i: usize) {
        let mut best = i;
        for j in i + 1..keys.len() {
            if keys[j] > keys[best] {
                best = j;
            }
        }
        moves.swap(i, best);
        keys.swap(i, best);
    }

    fn update_pv(&mut self, ply: usize, mv: u32) {
        let len = self.pv_len[ply + 1].max(ply + 1);
        let (upper, lower) = self.pv.split_at_mut(ply + 1);
        let line = &mut upper[ply];
        line[ply] = mv;
        line[ply + 1..len].copy_from_slice(&lower[0][ply + 1..len]);
        self.pv_len[ply] = len;
    }

    /// The expected line from the game's position: the principal variation's start that the
    /// game plays (a move it refuses, or one after the end, stops it), then a move that wins
    /// on the spot if the side to move at its end has one.
    fn line(&self, game: &TaflGame<B>) -> Vec<Move> {
        let mut after = game.clone();
        let mut line: Vec<Move> = self.pv[0][..self.pv_len[0]]
            .iter()
            .take_while(|&&m| m != NO_MOVE)
            .map(|&m| unpack(m))
            .take_while(|&mv| after.play(mv).is_ok())
            .collect();
        if after.verdict().is_none() && self.can_win_now(after.position()) {
            let mover = after.position().turn;
            let win = after.legal_moves().into_iter().find(|&mv| {
                let mut tried = after.clone();
                tried.play(mv).is_ok() && tried.verdict().is_some_and(|v| v.winner == Some(mover))
            });
            line.extend(win);
        }
        line
    }

    /// One iteration at the root: the index of the best move and its score, or `None` when the
    /// budget ran out before the first move was searched.
    fn root(
        &mut self,
        pos: &Position<B>,
        roots: &mut [RootMove],
        depth: i32,
    ) -> Option<(usize, i32)> {
        self.pv_len[0] = 0;
        let noisy = roots.iter().any(|r| r.noise != 0);
        let mut alpha = -INF;
        let beta = INF;
        let mut best: Option<(usize, i32)> = None;
        for (i, root) in roots.iter_mut().enumerate() {
            self.pv_len[1] = 1;
            let mv = root.mv;
            let mut child = *pos;
            let captures = child.play(self.board, mv);
            let score = match self.outcome(&child, pos.turn, &captures, 0) {
                Some(score) => score,
                None => {
                    let saved = self.enter(child.hash(), captures.men.any() || captures.king);
                    let score = if noisy || i == 0 {
                        -self.negamax(&child, depth - 1, 1, -beta, -alpha)
                    } else {
                        let s = -self.negamax(&child, depth - 1, 1, -alpha - 1, -alpha);
                        if s > alpha && !self.aborted {
                            -self.negamax(&child, depth - 1, 1, -beta, -alpha)
                        } else {
                            s
                        }
                    };
                    self.leave(saved);
                    score
                }
            };
            if self.aborted {
                break;
            }
            let shown = if is_decisive(score) {
                score
            } else {
                score + root.noise
            };
            root.score = shown;
            if best.is_none_or(|(_, b)| shown > b) {
                best = Some((i, shown));
                self.update_pv(0, pack(mv));
                if !noisy {
                    alpha = alpha.max(score);
                }
            }
        }
        best
    }

    fn negamax(
        &mut self,
        pos: &Position<B>,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if depth <= 0 || ply + 1 >= MAX_PLY {
            return self.quiesce(pos, alpha, beta, ply, QUIESCENCE);
        }
        self.pv_len[ply] = ply;
        if !self.tick() {
            return 0;
        }
        if self.can_win_now(pos) {
            return MATE - (ply as i32 + 1);
        }
        let key = pos.hash();
        let pv_node = beta - alpha > 1;
        let mut tt_move = NO_MOVE;
        if let Some(entry) = self.table.probe(key) {
            tt_move = entry.mv;
            if !pv_node && i32::from(entry.depth) >= depth {
                let score = from_table(entry.score, ply);
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut keys = std::mem::take(&mut self.keys[ply]);
        moves.clear();
        pos.legal_moves_into(self.board, &mut moves);
        self.order_keys(pos, ply, tt_move, &moves, &mut keys);
        let reduce = self.reductions && depth >= 3 && !self.threatened(pos);
        let alpha_in = alpha;
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        for i in 0..moves.len() {
            Self::select(&mut moves, &mut keys, i);
            let mv = moves[i];
            self.pv_len[ply + 1] = ply + 1;
            let mut child = *pos;
            let captures = child.play(self.board, mv);
            let score = match self.outcome(&child, pos.turn, &captures, ply) {
                Some(score) => score,
                None => {
                    let saved = self.enter(child.hash(), captures.men.any() || captures.king);
                    let score = if i == 0 {
                        -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha)
                    } else {
                        let r = if reduce && i >= 3 && keys[i] < ORDER_KILLER - 1 {
                            1 + i32::from(i >= 12 && depth >= 5)
                        } else {
                            0
                        };
                        let mut s =
                            -self.negamax(&child, depth - 1 - r, ply + 1, -alpha - 1, -alpha);
                        if r > 0 && s > alpha {
                            s = -self.negamax(&child, depth - 1, ply + 1, -alpha - 1, -alpha);
                        }
                        if s > alpha && s < beta {
                            s = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha);
                        }
                        s
                    };
                    self.leave(saved);
                    score
                }
            };
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_move = pack(mv);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, best_move);
                    if alpha >= beta {
                        if keys[i] < ORDER_CAPTURE {
                            let killers = &mut self.killers[ply];
                            if killers[0] != best_move {
                                killers[1] = killers[0];
                                killers[0] = best_move;
                            }
                            let h =
                                &mut self.history[mv.from.index() * self.squares + mv.to.index()];
                            *h = (*h + depth * depth).min(HISTORY_CAP - 1);
                        }
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        self.keys[ply] = keys;
        if self.aborted {
            return 0;
        }
        if best == -INF {
            // No legal move: the move before would have ended the game, so this is only a
            // guard.
            return -(MATE - ply as i32);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_in {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(
            key,
            Entry {
                key,
                mv: best_move,
                score: to_table(best, ply),
                depth: depth as i16,
                bound,
            },
        );
        best
    }

    /// The horizon: the static evaluation, unless the side to move is threatened with defeat
    /// next move, in which case every answer is tried.
    fn quiesce(
        &mut self,
        pos: &Position<B>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        left: u32,
    ) -> i32 {
        if ply < MAX_PLY {
            self.pv_len[ply] = ply;
        }
        if !self.tick() {
            return 0;
        }
        if self.can_win_now(pos) {
            return MATE - (ply as i32 + 1);
        }
        if left == 0 || ply + 1 >= MAX_PLY || !self.threatened(pos) {
            return self.eval.evaluate(pos, self.board);
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut keys = std::mem::take(&mut self.keys[ply]);
        moves.clear();
        pos.legal_moves_into(self.board, &mut moves);
        // Answers first: moves onto the king's lines and next to him, and king moves.
        let king = pos.king;
        let lines = super::eval::king_reach(pos, self.board) | self.board.neighbours(king);
        keys.clear();
        keys.extend(
            moves
                .iter()
                .map(|mv| i32::from(lines.has(mv.to)) + i32::from(king.has(mv.from))),
        );
        let mut best = -INF;
        for i in 0..moves.len() {
            Self::select(&mut moves, &mut keys, i);
            let mv = moves[i];
            let mut child = *pos;
            let captures = child.play(self.board, mv);
            let score = match self.outcome(&child, pos.turn, &captures, ply) {
                Some(score) => score,
                None => {
                    let saved = self.enter(child.hash(), captures.men.any() || captures.king);
                    let score = -self.quiesce(&child, -beta, -alpha, ply + 1, left - 1);
                    self.leave(saved);
                    score
                }
            };
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        self.keys[ply] = keys;
        if self.aborted {
            return 0;
        }
        if best == -INF {
            return -(MATE - ply as i32);
        }
        best
    }
}

/// The hashes of the positions since the last capture, replayed from the game's record; the
/// current position last.
fn game_history<B: Bits>(game: &TaflGame<B>) -> Vec<u64> {
    let board = game.board();
    let mut pos = *game.start();
    let mut hashes = vec![pos.hash()];
    for played in game.record() {
        let captures = pos.play(board, played.mv);
        if captures.men.any() || captures.king {
            hashes.clear();
        }
        hashes.push(pos.hash());
    }
    hashes
}
