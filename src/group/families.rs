//! Names of finite groups: `Cyc(n)` (alias `Z_n`), `Dih(n)`, `Sym(n)` (`S_n`), `Alt(n)`
//! (`A_n`), `Dic(n)`, `Perm((1,2,3),(1,2))` and direct products `G x H` (or `G × H`).
//!
//! Conventions (stated because the papers differ): `Dih(n)` is the group of symmetries of
//! the regular n-gon, of order 2n (Ernst–Sieben write D_n or D_{2n}; neither is accepted, as
//! the index is ambiguous); `Dih(1)` ≅ Cyc(2) and `Dih(2)` ≅ Cyc(2) x Cyc(2). `Dic(n)` is the
//! dicyclic group ⟨a, x | a^{2n} = 1, x² = aⁿ, x⁻¹ a x = a⁻¹⟩ of order 4n: `Dic(1)` ≅ Cyc(4),
//! `Dic(2)` is the quaternion group Q_8 (`Q_8` is not accepted: `Q_n` is the hypercube graph).
//! Points of `Perm(..)` are 1-based.

use super::{Group, GroupError, MAX_DEGREE, MAX_ORDER};

fn bad(family: &str, why: impl Into<String>) -> GroupError {
    GroupError::BadParameter {
        family: family.to_string(),
        why: why.into(),
    }
}

/// A group's name as the papers print it: `Sym(4)` → `S_4`, `Alt(5)` → `A_5`, `Cyc(12)` →
/// `Z_12`, `Dic(2)` → `Q_8`, `Cyc(2) x Sym(3)` → `Z_2 × S_3`; `Dih(n)`, `Dic(n)` (n ≠ 2) and
/// `Perm(..)` as written (the papers' D_n is ambiguous, see above).
pub fn paper_notation(name: &str) -> String {
    name.split(" x ")
        .map(|factor| {
            let f = factor.trim();
            let arg = |head: &str| {
                f.strip_prefix(head)
                    .and_then(|r| r.strip_prefix('('))
                    .and_then(|r| r.strip_suffix(')'))
                    .filter(|a| a.chars().all(|c| c.is_ascii_digit()))
            };
            if let Some(n) = arg("Sym") {
                format!("S_{n}")
            } else if let Some(n) = arg("Alt") {
                format!("A_{n}")
            } else if let Some(n) = arg("Cyc") {
                format!("Z_{n}")
            } else if arg("Dic") == Some("2") {
                "Q_8".into()
            } else {
                f.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" × ")
}

/// Whether `text` names a group (by its leading word), so that callers can tell a group from
/// a graph before parsing.
pub fn looks_like_group(text: &str) -> bool {
    let t = text.trim();
    let head: String = t.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    matches!(
        head.as_str(),
        "Cyc" | "Dih" | "Sym" | "Alt" | "Dic" | "Perm" | "Z" | "S" | "A"
    ) && (t[head.len()..].starts_with('(') || t[head.len()..].starts_with('_'))
}

/// Reads a group name.
pub fn parse_group(text: &str) -> Result<Group, GroupError> {
    let t = text.trim();
    let factors = split_product(t);
    if factors.len() > 1 {
        let groups = factors
            .iter()
            .map(|f| parse_group(f))
            .collect::<Result<Vec<_>, _>>()?;
        return product(&groups);
    }
    let (head, arg) = split_call(t).ok_or_else(|| GroupError::Unknown(t.to_string()))?;
    if head == "Perm" {
        return permutations(t, arg);
    }
    if head == "Dih" && arg.trim().parse::<u64>().is_err() && looks_like_group(arg) {
        return generalized_dihedral(&parse_group(arg)?);
    }
    let n: u64 = arg
        .trim()
        .parse()
        .map_err(|_| bad(head, format!("`{arg}` is not a positive integer")))?;
    if n == 0 {
        return Err(bad(head, "n must be at least 1"));
    }
    match head {
        "Cyc" | "Z" => cyclic(n),
        "Dih" => dihedral(n),
        "Sym" | "S" => symmetric(n),
        "Alt" | "A" => alternating(n),
        "Dic" => dicyclic(n),
        _ => Err(GroupError::Unknown(t.to_string())),
    }
}

/// `Head(arg)` or `Head_arg` / `Head_{arg}`.
fn split_call(t: &str) -> Option<(&str, &str)> {
    let head_len = t
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(t.len());
    let (head, rest) = t.split_at(head_len);
    if let Some(r) = rest.strip_prefix('(') {
        return Some((head, r.strip_suffix(')')?));
    }
    let r = rest.strip_prefix('_')?;
    Some((
        head,
        r.strip_prefix('{')
            .and_then(|x| x.strip_suffix('}'))
            .unwrap_or(r),
    ))
}

/// Splits `G x H x K` at the top level (outside parentheses) on `x` or `×`.
fn split_product(t: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut from = 0;
    for (i, c) in t.char_indices() {
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' => depth -= 1,
            'x' | '×' if depth == 0 => {
                out.push(t[from..i].trim());
                from = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(t[from..].trim());
    out
}

fn check_order(name: &str, order: u128) -> Result<(), GroupError> {
    if order > MAX_ORDER as u128 {
        Err(GroupError::TooLarge {
            name: name.to_string(),
        })
    } else {
        Ok(())
    }
}

fn check_degree(name: &str, n: u64) -> Result<usize, GroupError> {
    if n > MAX_DEGREE as u64 {
        return Err(bad(name, format!("at most {MAX_DEGREE} points")));
    }
    Ok(n as usize)
}

/// The n-cycle on n points.
fn rotation(n: usize) -> Vec<u32> {
    (0..n).map(|i| ((i + 1) % n) as u32).collect()
}

pub fn cyclic(n: u64) -> Result<Group, GroupError> {
    let name = format!("Cyc({n})");
    check_order(&name, n as u128)?;
    let n = check_degree(&name, n)?;
    Group::generated(name, n, &[rotation(n)])
}

pub fn dihedral(n: u64) -> Result<Group, GroupError> {
    let name = format!("Dih({n})");
    check_order(&name, 2 * n as u128)?;
    let n = check_degree(&name, n)?;
    if n <= 2 {
        // The n-gon action is not faithful for n <= 2: use r^i s^j with r^n = s^2 = 1,
        // s r = r^-1 s, as a multiplication on i + n j.
        let mul = |a: usize, b: usize| {
            let (i, j) = (a % n, a / n);
            let (k, l) = (b % n, b / n);
            let k = if j == 1 { (n - k) % n } else { k };
            (i + k) % n + n * ((j + l) % 2)
        };
        return Group::from_multiplication(name, 2 * n, &[1 % n, n], mul);
    }
    let reflection: Vec<u32> = (0..n).map(|i| ((n - i) % n) as u32).collect();
    Group::generated(name, n, &[rotation(n), reflection])
}

fn factorial(n: u64) -> u128 {
    (1..=n as u128)
        .try_fold(1u128, |a, b| a.checked_mul(b))
        .unwrap_or(u128::MAX)
}

/// `Dih(A)` for an abelian group A: A ⋊ Z_2, the involution inverting every element of A
/// (Dih(Z_n) ≅ Dih(n)); e.g. `Dih(Cyc(3) x Cyc(3))`, of order 18 with 9 involutions.
pub fn generalized_dihedral(a: &Group) -> Result<Group, GroupError> {
    let name = format!("Dih({})", a.name());
    let n = a.order();
    let gens = a.generators();
    if gens.iter().any(|&x| {
        gens.iter()
            .any(|&y| a.mul(x as usize, y as usize) != a.mul(y as usize, x as usize))
    }) {
        return Err(bad("Dih", format!("{} is not abelian", a.name())));
    }
    check_order(&name, 2 * n as u128)?;
    // (x, s) is x + s·n: (x, s)(y, t) = (x · y^{±1}, s + t), inverted when s = 1.
    let mul = |p: usize, q: usize| {
        let (x, s) = (p % n, p / n);
        let (y, t) = (q % n, q / n);
        let y = if s == 1 { a.inverse(y) } else { y };
        a.mul(x, y) + ((s + t) % 2) * n
    };
    let mut generators: Vec<usize> = gens.iter().map(|&g| g as usize).collect();
    generators.push(n);
    Group::from_multiplication(name, 2 * n, &generators, mul)
}

pub fn symmetric(n: u64) -> Result<Group, GroupError> {
    let name = format!("Sym({n})");
    check_order(&name, factorial(n))?;
    let n = check_degree(&name, n)?;
    let mut gens = Vec::new();
    if n >= 2 {
        let mut t: Vec<u32> = (0..n as u32).collect();
        t.swap(0, 1);
        gens.push(t);
        gens.push(rotation(n));
    }
    Group::generated(name, n, &gens)
}

pub fn alternating(n: u64) -> Result<Group, GroupError> {
    let name = format!("Alt({n})");
    check_order(&name, factorial(n) / 2)?;
    let n = check_degree(&name, n)?;
    // The 3-cycles (1,2,i) generate Alt(n).
    let gens: Vec<Vec<u32>> = (2..n)
        .map(|i| {
            let mut p: Vec<u32> = (0..n as u32).collect();
            p[0] = 1;
            p[1] = i as u32;
            p[i] = 0;
            p
        })
        .collect();
    Group::generated(name, n, &gens)
}

pub fn dicyclic(n: u64) -> Result<Group, GroupError> {
    let name = format!("Dic({n})");
    check_order(&name, 4 * n as u128)?;
    let n = n as usize;
    let m = 2 * n;
    // a^i x^j as i + m j; x a^k = a^-k x and x^2 = a^n.
    let mul = |a: usize, b: usize| {
        let (i, j) = (a % m, a / m);
        let (k, l) = (b % m, b / m);
        let k = if j == 1 { (m - k) % m } else { k };
        let mut e = (i + k) % m;
        let mut f = j + l;
        if f == 2 {
            f = 0;
            e = (e + n) % m;
        }
        e + m * f
    };
    Group::from_multiplication(name, 2 * m, &[1 % m, m], mul)
}

/// `Perm(g1, g2, ...)`, each generator a product of cycles on 1-based points.
fn permutations(name: &str, arg: &str) -> Result<Group, GroupError> {
    let gens_text = split_generators(arg).map_err(|why| GroupError::BadPermutation {
        text: arg.to_string(),
        why,
    })?;
    let degree = gens_text
        .iter()
        .flat_map(|g| g.split(|c: char| !c.is_ascii_digit()))
        .filter_map(|x| x.parse::<u64>().ok())
        .max()
        .unwrap_or(1)
        .max(1);
    let degree = check_degree(name, degree)?;
    let gens = gens_text
        .iter()
        .map(|g| parse_cycles(g, degree))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|why| GroupError::BadPermutation {
            text: arg.to_string(),
            why,
        })?;
    let name: String = name.split_whitespace().collect::<Vec<_>>().join("");
    Group::generated(name, degree, &gens)
}

/// Splits `(1,2,3),(1,2)(3,4)` into generators at commas outside parentheses.
fn split_generators(arg: &str) -> Result<Vec<&str>, String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut from = 0;
    for (i, c) in arg.char_indices() {
        match c {
            '(' => {
                if depth > 0 {
                    return Err("nested parentheses inside a cycle".into());
                }
                depth += 1;
            }
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return Err("`)` without `(`".into());
                }
            }
            ',' if depth == 0 => {
                out.push(arg[from..i].trim());
                from = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err("a cycle is never closed".into());
    }
    out.push(arg[from..].trim());
    if out.iter().any(|g| g.is_empty()) {
        return Err("an empty generator (write the identity as `()`)".into());
    }
    Ok(out)
}

/// A product of cycles such as `(1,2,3)(4,5)` (1-based points, composed left to right) as the
/// images of the points `0..degree`.
pub fn parse_cycles(text: &str, degree: usize) -> Result<Vec<u32>, String> {
    let mut perm: Vec<u32> = (0..degree as u32).collect();
    let mut rest = text.trim();
    if rest.is_empty() {
        return Err("expected cycles such as (1,2,3)".into());
    }
    while !rest.is_empty() {
        let body = rest
            .strip_prefix('(')
            .ok_or_else(|| format!("expected `(` at `{rest}`"))?;
        let close = body.find(')').ok_or("a cycle is never closed")?;
        let points = body[..close]
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| match p.parse::<usize>() {
                Ok(k) if k >= 1 && k <= degree => Ok(k - 1),
                _ => Err(format!("`{p}` is not a point 1..={degree}")),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut seen = std::collections::HashSet::new();
        if !points.iter().all(|p| seen.insert(*p)) {
            return Err(format!("the cycle ({}) repeats a point", &body[..close]));
        }
        // Apply the cycle after what is already there.
        let mut cycle: Vec<u32> = (0..degree as u32).collect();
        for (i, &p) in points.iter().enumerate() {
            cycle[p] = points[(i + 1) % points.len()] as u32;
        }
        perm = perm.iter().map(|&x| cycle[x as usize]).collect();
        rest = body[close + 1..].trim_start();
    }
    Ok(perm)
}

/// The direct product, acting on the disjoint union of the factors' points.
pub fn product(groups: &[Group]) -> Result<Group, GroupError> {
    let name = groups
        .iter()
        .map(|g| g.name().to_string())
        .collect::<Vec<_>>()
        .join(" x ");
    let order = groups
        .iter()
        .try_fold(1u128, |a, g| a.checked_mul(g.order() as u128))
        .unwrap_or(u128::MAX);
    check_order(&name, order)?;
    let degree: usize = groups.iter().map(Group::degree).sum();
    check_degree(&name, degree as u64)?;
    let mut gens = Vec::new();
    let mut shift = 0;
    for g in groups {
        for &s in g.generators() {
            let mut p: Vec<u32> = (0..degree as u32).collect();
            for (i, &x) in g.perm(s as usize).iter().enumerate() {
                p[shift + i] = (shift as u32) + x;
            }
            gens.push(p);
        }
        shift += g.degree();
    }
    Group::generated(name, degree, &gens)
}

#[cfg(test)]
mod tests {
    use super::paper_notation;

    #[test]
    fn names_as_the_papers_print_them() {
        assert_eq!(paper_notation("Sym(4)"), "S_4");
        assert_eq!(paper_notation("Alt(5)"), "A_5");
        assert_eq!(paper_notation("Cyc(12)"), "Z_12");
        assert_eq!(paper_notation("Dic(2)"), "Q_8");
        assert_eq!(paper_notation("Cyc(2) x Sym(3)"), "Z_2 × S_3");
        // Kept as written: the papers' D_n is ambiguous, Dic_3 has no usual letter, and a
        // name that only starts like a family is not rewritten.
        assert_eq!(paper_notation("Dih(4)"), "Dih(4)");
        assert_eq!(paper_notation("Dic(3)"), "Dic(3)");
        assert_eq!(paper_notation("Perm((1,2,3),(1,2))"), "Perm((1,2,3),(1,2))");
        assert_eq!(paper_notation("Sym(n)"), "Sym(n)");
    }
}
