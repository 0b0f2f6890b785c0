//! Collision filtering: which pairs of shapes may collide ([`Filter`], per
//! shape) and which shapes a query sees ([`QueryFilter`]).

/// Which shapes a shape collides with, by Box2D's rule: two shapes in the
/// same non-zero group always collide if the group is positive and never
/// if it is negative; otherwise each shape's category must be in the
/// other's mask. The default (category 1, every mask bit, group 0)
/// collides with everything that does not exclude it.
///
/// ```
/// use tumble::Filter;
///
/// const PLAYER: u64 = 1 << 1;
/// const BULLET: u64 = 1 << 2;
/// // The player's bullets pass through the player (and each other).
/// let player = Filter { category: PLAYER, mask: !BULLET, group: 0 };
/// let bullet = Filter { category: BULLET, mask: !(PLAYER | BULLET), group: 0 };
/// assert!(!player.should_collide(&bullet));
/// assert!(!bullet.should_collide(&bullet));
/// assert!(bullet.should_collide(&Filter::default())); // walls
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Filter {
    /// The categories the shape belongs to (usually one bit).
    pub category: u64,
    /// The categories the shape collides with.
    pub mask: u64,
    /// Shapes of the same non-zero group always collide (positive) or never
    /// collide (negative), whatever their categories and masks: a ragdoll's
    /// limbs share a negative group. Zero is no group.
    pub group: i32,
}

impl Default for Filter {
    fn default() -> Self {
        Filter {
            category: DEFAULT_CATEGORY,
            mask: u64::MAX,
            group: 0,
        }
    }
}

/// The category of a shape or query that sets none.
pub const DEFAULT_CATEGORY: u64 = 1;

impl Filter {
    /// Whether shapes with filters `self` and `other` may collide.
    #[inline]
    pub fn should_collide(&self, other: &Filter) -> bool {
        if self.group == other.group && self.group != 0 {
            return self.group > 0;
        }
        self.mask & other.category != 0 && self.category & other.mask != 0
    }

    /// Every category a shape with this filter may collide with: its mask,
    /// or every category when it is in a positive group (whose members
    /// collide whatever their masks). `should_collide` is false for every
    /// shape whose category is outside it.
    ///
    /// ```
    /// use tumble::Filter;
    ///
    /// let debris = Filter { category: 1 << 3, mask: !(1 << 3), group: 0 };
    /// assert_eq!(debris.pair_mask(), !(1 << 3));
    /// assert_eq!(Filter { group: 2, ..debris }.pair_mask(), u64::MAX);
    /// ```
    #[inline]
    pub fn pair_mask(&self) -> u64 {
        if self.group > 0 {
            u64::MAX
        } else {
            self.mask
        }
    }
}

/// Which shapes a query reports: those whose category is in the query's
/// mask and whose mask contains the query's category (groups play no part).
/// The default (category 1, every mask bit) sees every shape that does not
/// exclude category 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct QueryFilter {
    /// The categories the query acts as.
    pub category: u64,
    /// The categories of shapes the query reports.
    pub mask: u64,
}

impl Default for QueryFilter {
    fn default() -> Self {
        QueryFilter {
            category: DEFAULT_CATEGORY,
            mask: u64::MAX,
        }
    }
}

impl QueryFilter {
    /// A query that sees every shape, whatever its filter.
    pub const ALL: QueryFilter = QueryFilter {
        category: u64::MAX,
        mask: u64::MAX,
    };

    /// Whether a shape with filter `shape` passes.
    #[inline]
    pub fn accepts(&self, shape: &Filter) -> bool {
        shape.category & self.mask != 0 && shape.mask & self.category != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(category: u64, mask: u64, group: i32) -> Filter {
        Filter {
            category,
            mask,
            group,
        }
    }

    /// The rule's truth table: group first (same non-zero group decides
    /// alone), then category against mask both ways.
    #[test]
    fn filter_rule_truth_table() {
        let cases = [
            // (a, b, collide)
            (Filter::default(), Filter::default(), true),
            // Same positive group collides even with masks that exclude.
            (f(1, 0, 3), f(2, 0, 3), true),
            // Same negative group never collides, even with open masks.
            (f(1, !0, -3), f(1, !0, -3), false),
            // Different groups fall back to the masks.
            (f(1, !0, -3), f(1, !0, -4), true),
            (f(1, !0, 3), f(1, 0, 4), false),
            // One side's mask excluding the other's category is enough.
            (f(1, 2, 0), f(2, 1, 0), true),
            (f(1, 2, 0), f(2, 2, 0), false),
            (f(1, 1, 0), f(2, 1, 0), false),
            // Group zero is no group, even when both have it.
            (f(1, 0, 0), f(1, 0, 0), false),
            // Disjoint categories with both masks open collide.
            (f(4, !0, 0), f(8, !0, 0), true),
        ];
        for (a, b, expected) in cases {
            assert_eq!(a.should_collide(&b), expected, "{a:?} with {b:?}");
            assert_eq!(
                b.should_collide(&a),
                expected,
                "the rule is symmetric: {b:?} with {a:?}"
            );
        }
    }

    #[test]
    fn query_filter_checks_both_ways() {
        let shape = f(2, 1, -1);
        assert!(QueryFilter::default().accepts(&shape));
        assert!(
            !QueryFilter {
                category: 2,
                mask: !0
            }
            .accepts(&shape),
            "the shape's mask excludes 2"
        );
        assert!(
            !QueryFilter { category: 1, mask: 1 }.accepts(&shape),
            "the query's mask excludes 2"
        );
        assert!(QueryFilter::ALL.accepts(&shape));
        assert!(
            !QueryFilter::ALL.accepts(&f(0, !0, 0)),
            "a shape in no category is seen by nothing"
        );
    }
}
