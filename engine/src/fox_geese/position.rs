//! The rules on a bare position: where the pieces stand and who is to move, the moves open to
//! that side, and the position after one of them.

use super::point::{Dir, Point, Reach, SIZE, reach};
use super::{FoxGeeseAction, FoxGeeseError, Side};

/// Where the pieces stand and who is to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Position {
    /// One bit per goose, at the point's index.
    pub geese: u64,
    pub fox: Point,
    pub turn: Side,
}

impl Position {
    pub fn has_goose(&self, point: Point) -> bool {
        self.geese & point.bit() != 0
    }

    pub fn is_empty(&self, point: Point) -> bool {
        point != self.fox && !self.has_goose(point)
    }

    pub fn piece_at(&self, point: Point) -> Option<Side> {
        if point == self.fox {
            Some(Side::Fox)
        } else if self.has_goose(point) {
            Some(Side::Geese)
        } else {
            None
        }
    }

    pub fn goose_count(&self) -> u32 {
        self.geese.count_ones()
    }

    /// The 0-based rank of the lowest goose, `None` when no goose is left.
    pub fn lowest_goose_rank(&self) -> Option<u8> {
        // Bits run rank by rank from a1, so the lowest set bit is a goose on the lowest rank.
        (self.geese != 0).then(|| self.geese.trailing_zeros() as u8 / SIZE)
    }

    /// Whether the fox stands on a lower rank than every goose (`fox_escaped`).
    pub fn fox_behind_geese(&self) -> bool {
        self.lowest_goose_rank()
            .is_some_and(|lowest| self.fox.rank() < lowest)
    }

    pub fn geese(&self) -> impl Iterator<Item = Point> + '_ {
        Point::all().filter(|&point| self.has_goose(point))
    }

    /// What must stay the same for an earlier position to come back. Geese are never added and
    /// never step backward, so a capture lowers their number for good and, while the number
    /// holds, a forward step raises the sum of their ranks for good.
    pub fn irreversible(&self) -> (u32, u32) {
        let rank_sum = self.geese().map(|point| u32::from(point.rank())).sum();
        (self.goose_count(), rank_sum)
    }

    /// The empty points one step from `from` in `dirs`.
    pub fn steps<'a>(&'a self, from: Point, dirs: &'a [Dir]) -> impl Iterator<Item = Point> + 'a {
        dirs.iter()
            .filter_map(move |&dir| from.step(dir))
            .filter(|&to| self.is_empty(to))
    }

    /// Every single jump open to the fox now: the goose it jumps and where it lands.
    pub fn jumps(&self) -> impl Iterator<Item = (Point, Point)> + '_ {
        Dir::ALL.into_iter().filter_map(|dir| {
            let over = self.fox.step(dir).filter(|&p| self.has_goose(p))?;
            let to = over.step(dir).filter(|&p| self.is_empty(p))?;
            Some((over, to))
        })
    }

    /// The position after the fox jumps the goose on `over` and lands on `to` (turn unchanged).
    pub fn jumped(&self, over: Point, to: Point) -> Position {
        Position {
            geese: self.geese & !over.bit(),
            fox: to,
            turn: self.turn,
        }
    }

    pub fn has_moves(&self) -> bool {
        match self.turn {
            Side::Geese => self
                .geese()
                .any(|goose| self.steps(goose, &Dir::GOOSE).next().is_some()),
            Side::Fox => {
                self.steps(self.fox, &Dir::ALL).next().is_some() || self.jumps().next().is_some()
            }
        }
    }

    /// Every legal action of the side to move, every prefix of every jump chain included.
    pub fn legal_actions(&self) -> Vec<FoxGeeseAction> {
        let single = |from, to| FoxGeeseAction {
            from,
            landings: vec![to],
        };
        let mut out = Vec::new();
        match self.turn {
            Side::Geese => {
                for goose in self.geese() {
                    out.extend(self.steps(goose, &Dir::GOOSE).map(|to| single(goose, to)));
                }
            }
            Side::Fox => {
                out.extend(
                    self.steps(self.fox, &Dir::ALL)
                        .map(|to| single(self.fox, to)),
                );
                self.jump_chains(self.fox, &mut Vec::new(), &mut out);
            }
        }
        out
    }

    /// Appends every chain from `from` that continues `path`, the landings so far. Each jump
    /// removes a goose, so the recursion is at most as deep as there are geese.
    pub fn jump_chains(&self, from: Point, path: &mut Vec<Point>, out: &mut Vec<FoxGeeseAction>) {
        for (over, to) in self.jumps() {
            path.push(to);
            out.push(FoxGeeseAction {
                from,
                landings: path.clone(),
            });
            self.jumped(over, to).jump_chains(from, path, out);
            path.pop();
        }
    }

    /// The position after `action`, or why it is illegal. Works on a copy, so a refused action
    /// changes nothing.
    pub fn after(&self, action: &FoxGeeseAction) -> Result<Position, FoxGeeseError> {
        let from = action.from;
        let mut next = match self.piece_at(from) {
            None => return Err(FoxGeeseError::NoPiece(from)),
            Some(owner) if owner != self.turn => {
                return Err(FoxGeeseError::NotYourPiece { point: from, owner });
            }
            Some(Side::Geese) => self.goose_moved(from, &action.landings)?,
            Some(Side::Fox) => self.fox_moved(&action.landings)?,
        };
        next.turn = self.turn.opponent();
        Ok(next)
    }

    pub fn goose_moved(&self, from: Point, landings: &[Point]) -> Result<Position, FoxGeeseError> {
        let &[to] = landings else {
            return Err(FoxGeeseError::GooseChain { from });
        };
        match reach(from, to) {
            Some(Reach::Step(Dir::South)) => Err(FoxGeeseError::GooseBackward { from, to }),
            Some(Reach::Step(_)) if self.is_empty(to) => Ok(Position {
                geese: (self.geese & !from.bit()) | to.bit(),
                ..*self
            }),
            Some(Reach::Step(_)) => Err(FoxGeeseError::Occupied(to)),
            Some(Reach::Jump { .. }) | None => Err(FoxGeeseError::NotAdjacent { from, to }),
        }
    }

    pub fn fox_moved(&self, landings: &[Point]) -> Result<Position, FoxGeeseError> {
        let chain = landings.len() > 1;
        let mut pos = *self;
        for &to in landings {
            let from = pos.fox;
            pos = match reach(from, to) {
                None => return Err(FoxGeeseError::NotAdjacent { from, to }),
                Some(Reach::Step(_)) if chain => {
                    return Err(FoxGeeseError::StepInChain { from, to });
                }
                Some(Reach::Jump { over }) if !pos.has_goose(over) => {
                    return Err(FoxGeeseError::BadJump { from, over, to });
                }
                _ if !pos.is_empty(to) => return Err(FoxGeeseError::Occupied(to)),
                Some(Reach::Step(_)) => Position { fox: to, ..pos },
                Some(Reach::Jump { over }) => pos.jumped(over, to),
            };
        }
        Ok(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fox_geese::FoxGeese;
    use crate::game::{Game, Outcome};

    #[test]
    fn three_geese_can_never_trap_the_fox() {
        let points: Vec<Point> = Point::all().collect();
        for &fox in &points {
            let others: Vec<Point> = points.iter().copied().filter(|&q| q != fox).collect();
            for (i, a) in others.iter().enumerate() {
                for (j, b) in others.iter().enumerate().skip(i + 1) {
                    for c in others.iter().skip(j + 1) {
                        let pos = Position {
                            geese: a.bit() | b.bit() | c.bit(),
                            fox,
                            turn: Side::Fox,
                        };
                        assert!(pos.has_moves(), "fox {fox}, geese {a} {b} {c}");
                    }
                }
            }
        }
        // Four can: the fox at an arm's end.
        let geese: Vec<Point> = ["d1", "e1", "c2", "c3"]
            .map(|name| name.parse().unwrap())
            .into();
        let game = FoxGeese::from_points("c1".parse().unwrap(), &geese, Side::Fox).unwrap();
        assert_eq!(game.outcome().map(Outcome::reason), Some("fox_trapped"));
    }
}
