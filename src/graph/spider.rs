//! Spiders (subdivided stars, starlike trees): `Spider_{l1,...,lk}` is a centre `c` with k legs,
//! leg i a path `vi_1 .. vi_{li}` hanging from `c`. They are the trees with at most one vertex
//! of degree >= 3, named so that claims about trees (Benesh–Ernst–Meyer–Salmon–Sieben 2024, the
//! geodetic building games) reach trees of any size by a parameter range over the leg lengths,
//! where the enumeration of all trees stops at 7 vertices.

use super::{Graph, GraphError};

/// The spider with legs of the given lengths (each >= 1, at least one leg); it has
/// 1 + l1 + … + lk vertices, and k leaves when k >= 2 (`Spider_{a}` is the path P_{a+1}).
pub fn spider(legs: &[u64]) -> Result<Graph, GraphError> {
    let lengths: Vec<String> = legs.iter().map(u64::to_string).collect();
    let name = format!("Spider_{{{}}}", lengths.join(","));
    if legs.is_empty() || legs.contains(&0) {
        return Err(GraphError::BadParameter {
            family: name,
            why: "a spider needs at least one leg, each of length >= 1".into(),
        });
    }
    let n = legs.iter().fold(1u64, |a, &l| a.saturating_add(l));
    if n > super::MAX_VERTICES as u64 {
        return Err(GraphError::TooLarge {
            name,
            n: n.min(usize::MAX as u64) as usize,
        });
    }
    let mut names = vec!["c".to_string()];
    let mut edges = Vec::with_capacity(n as usize - 1);
    for (i, &l) in legs.iter().enumerate() {
        // Each leg starts at the centre and runs outward.
        let mut prev = 0;
        for j in 1..=l {
            names.push(format!("v{}_{}", i + 1, j));
            let cur = names.len() - 1;
            edges.push((prev, cur));
            prev = cur;
        }
    }
    Graph::new(name, names, &edges)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::families::parse_large_graph;

    fn leaves(g: &Graph) -> usize {
        (0..g.n()).filter(|&v| g.degree(v) == 1).count()
    }

    #[test]
    fn a_spider_is_a_tree_with_one_leaf_per_leg() {
        for legs in [
            vec![1, 1, 1],
            vec![3, 2, 2, 1],
            vec![5, 1, 1, 1, 1, 1],
            vec![2, 2],
        ] {
            let g = spider(&legs).unwrap();
            let n = 1 + legs.iter().sum::<u64>() as usize;
            assert_eq!(g.n(), n, "{legs:?}");
            // Connected (Graph::new refuses otherwise) with n - 1 edges: a tree.
            assert_eq!(g.edge_count(), n - 1, "{legs:?}");
            assert_eq!(leaves(&g), legs.len(), "{legs:?}");
            // The centre has one neighbour per leg; a leaf is as far from it as its leg is long.
            assert_eq!(g.degree(0) as usize, legs.len());
            let d = g.distances_from(0);
            let far: Vec<u32> = (0..g.n())
                .filter(|&v| g.degree(v) == 1)
                .map(|v| d[v])
                .collect();
            let mut want: Vec<u32> = legs.iter().map(|&l| l as u32).collect();
            let mut got = far.clone();
            want.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, want, "{legs:?}");
        }
    }

    #[test]
    fn small_spiders_are_stars_and_paths() {
        // Spider_{1,1,1} is the star K_{1,3}: the centre is adjacent to every other vertex.
        let g = spider(&[1, 1, 1]).unwrap();
        assert_eq!(g.degree(0), 3);
        assert!((1..4).all(|v| g.degree(v) == 1));
        // One or two legs make a path: every vertex has degree <= 2 and the diameter is n - 1.
        for legs in [vec![4], vec![3, 2]] {
            let g = spider(&legs).unwrap();
            assert!((0..g.n()).all(|v| g.degree(v) <= 2));
            let end = (0..g.n()).find(|&v| g.degree(v) == 1).unwrap();
            assert_eq!(
                *g.distances_from(end).iter().max().unwrap() as usize,
                g.n() - 1
            );
        }
    }

    #[test]
    fn spiders_parse_by_name_and_bad_legs_are_refused() {
        let g = parse_large_graph("Spider_{3,1,2}").unwrap();
        assert_eq!(g.name(), "Spider_{3,1,2}");
        assert_eq!(g.n(), 7);
        assert_eq!(g.vertex_index("v1_3"), Some(3));
        for bad in ["Spider_{2,0}", "Spider_{}"] {
            assert!(parse_large_graph(bad).is_err(), "{bad}");
        }
    }
}
