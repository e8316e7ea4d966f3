//! The user guide's generated reference pages (docs/guide/src/generated/): every command,
//! flag and argument from the clap command tree, the game language and graph families from
//! their catalogues ([`crate::expr::forms`], [`crate::graph::families::FAMILIES`]), and the
//! position features ([`super::features::all_markdown`]). tests/docs.rs compares the
//! committed pages with these, so the reference cannot go stale.

use clap::CommandFactory;

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// `(file name, contents)` of every generated page.
pub fn pages() -> Result<Vec<(&'static str, String)>, String> {
    Ok(vec![
        ("cli.md", cli_markdown()),
        ("spec.md", spec_markdown()?),
        ("language.md", language_markdown()),
        ("features.md", super::features::all_markdown()?),
    ])
}

const HEADER: &str =
    "<!-- Generated from the code; tests/docs.rs fails when it is stale (GRUNDY_BLESS=1 rewrites it). -->\n\n";

/// Every subcommand with its description, arguments and flags.
pub fn cli_markdown() -> String {
    let mut s = format!("{HEADER}# Commands and flags (generated)\n\n");
    s.push_str("The same text as `grundy help COMMAND`. Exit codes everywhere: 0 success, 1 some claim refuted, 2 bad input.\n\n");
    let mut root = super::Cli::command();
    root.build();
    fn walk(cmd: &clap::Command, path: &str, s: &mut String) {
        for sub in cmd.get_subcommands() {
            // `help`, and grundy's own `render-worker`, are not the user's to call.
            if sub.get_name() == "help" || sub.is_hide_set() {
                continue;
            }
            let name = format!("{path} {}", sub.get_name());
            s.push_str(&format!("## `{}`\n\n", name.trim()));
            if let Some(a) = sub.get_long_about().or(sub.get_about()) {
                s.push_str(&format!("{}\n\n", a.to_string().trim()));
            }
            let args: Vec<&clap::Arg> = sub
                .get_arguments()
                .filter(|a| !matches!(a.get_id().as_str(), "help" | "version"))
                .collect();
            if !args.is_empty() {
                s.push_str("| argument | default | meaning |\n|---|---|---|\n");
                for a in args {
                    let shown = match (a.get_long(), a.get_value_names()) {
                        (Some(l), Some(v)) if a.get_action().takes_values() => {
                            format!("--{l} {}", v[0])
                        }
                        (Some(l), _) if a.get_action().takes_values() => {
                            format!("--{l} {}", a.get_id().as_str().to_uppercase())
                        }
                        (Some(l), _) => format!("--{l}"),
                        (None, _) => format!("<{}>", a.get_id().as_str().to_uppercase()),
                    };
                    // A switch's default (`false`) says nothing.
                    let default: Vec<String> = if a.get_action().takes_values() {
                        a.get_default_values()
                            .iter()
                            .map(|v| v.to_string_lossy().into_owned())
                            .collect()
                    } else {
                        Vec::new()
                    };
                    let mut help = a
                        .get_long_help()
                        .or(a.get_help())
                        .map(|h| h.to_string())
                        .unwrap_or_default();
                    // Values that carry their own descriptions (the registered closures).
                    let values: Vec<String> = a
                        .get_possible_values()
                        .iter()
                        .filter_map(|v| Some(format!("`{}`: {}", v.get_name(), v.get_help()?)))
                        .collect();
                    if !values.is_empty() {
                        help = format!("{help}; one of {}", values.join("; "));
                    }
                    s.push_str(&format!(
                        "| `{}` | {} | {} |\n",
                        shown,
                        if default.is_empty() {
                            String::new()
                        } else {
                            format!("`{}`", default.join(","))
                        },
                        cell(&help)
                    ));
                }
                s.push('\n');
            }
            walk(sub, &name, s);
        }
    }
    walk(&root, "grundy", &mut s);
    s
}

/// The game language and the graph families.
pub fn language_markdown() -> String {
    let mut s = format!("{HEADER}# Games and graph families (generated)\n\n");
    s.push_str("## Games\n\n| form | example | meaning |\n|---|---|---|\n");
    for f in crate::expr::forms() {
        s.push_str(&format!(
            "| `{}` | `{}` | {} |\n",
            cell(f.syntax),
            cell(f.example),
            cell(f.meaning)
        ));
    }
    s.push_str(
        "\n## Structures of the closure games\n\nThe X of `GEN(X)`, `DNG(X)`, `TER(X)`, `DNT(X)`.\n\n| structure | example | meaning |\n|---|---|---|\n",
    );
    for f in crate::game::closure::structure_forms() {
        s.push_str(&format!(
            "| `{}` | `{}` | {} |\n",
            cell(f.syntax),
            cell(f.example),
            cell(f.meaning)
        ));
    }
    s.push_str(
        "\n## Graph families\n\n| family | example | vertices and meaning |\n|---|---|---|\n",
    );
    for f in crate::graph::families::all_docs() {
        s.push_str(&format!(
            "| `{}` | `{}` | {} |\n",
            cell(f.syntax),
            cell(f.example),
            cell(f.meaning)
        ));
    }
    s
}

/// A JSON Schema type, shortly: `string`, `integer or null`, a link to a nested type.
fn type_of(v: &serde_json::Value) -> String {
    use serde_json::Value;
    if let Some(r) = v.get("$ref").and_then(Value::as_str) {
        let name = r.rsplit('/').next().unwrap_or(r);
        return format!("[{name}](#{})", name.to_lowercase());
    }
    if let Some(alts) = v.get("anyOf").or(v.get("oneOf")).and_then(Value::as_array) {
        return alts.iter().map(type_of).collect::<Vec<_>>().join(" or ");
    }
    let base = match v.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" or "),
        _ => "any".to_string(),
    };
    match (base.as_str(), v.get("items"), v.get("additionalProperties")) {
        ("array", Some(items), _) => format!("list of {}", type_of(items)),
        ("object", _, Some(inner)) if inner.is_object() => format!("map to {}", type_of(inner)),
        _ => base,
    }
}

fn fields(def: &serde_json::Value, s: &mut String) {
    use serde_json::Value;
    let required: Vec<&str> = def
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(props) = def.get("properties").and_then(Value::as_object) else {
        if let Some(d) = def.get("description").and_then(Value::as_str) {
            s.push_str(&format!("{}\n\n", d.trim()));
        }
        s.push_str(&format!("Type: {}.\n\n", type_of(def)));
        return;
    };
    if let Some(d) = def.get("description").and_then(Value::as_str) {
        s.push_str(&format!("{}\n\n", d.trim()));
    }
    s.push_str("| field | type | required | meaning |\n|---|---|---|---|\n");
    for (name, p) in props {
        let meaning = p.get("description").and_then(Value::as_str).unwrap_or("");
        s.push_str(&format!(
            "| `{name}` | {} | {} | {} |\n",
            cell(&type_of(p)),
            if required.contains(&name.as_str()) {
                "yes"
            } else {
                ""
            },
            cell(meaning)
        ));
    }
    s.push('\n');
}

/// Every field of every spec kind and of the nested types, from `grundy schema`.
pub fn spec_markdown() -> Result<String, String> {
    use serde_json::Value;
    let schema = crate::kinds::schema();
    let defs = schema
        .get("$defs")
        .and_then(Value::as_object)
        .ok_or("the schema has no $defs")?;
    let alts = schema
        .get("anyOf")
        .and_then(Value::as_array)
        .ok_or("the schema has no anyOf")?;
    let all = crate::kinds::all();
    let kinds = all.iter().map(|k| k.name);
    if alts.len() != kinds.len() {
        return Err(format!(
            "the schema has {} kinds, the registry {}",
            alts.len(),
            kinds.len()
        ));
    }
    let mut s = format!("{HEADER}# Spec fields (generated)\n\n");
    s.push_str(
        "Every field of every spec kind, from `grundy schema` (the JSON Schema editors read). \
The header fields (`kind`, `source`, `statement`, `expect`, `because`, `uses`, `output`, …) \
are shared by all kinds.\n\n",
    );
    for (kind, alt) in kinds.zip(alts) {
        let def = alt
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| defs.get(r.rsplit('/').next().unwrap_or(r)))
            .unwrap_or(alt);
        s.push_str(&format!("## kind: {kind}\n\n"));
        fields(def, &mut s);
    }
    s.push_str("## Nested types\n\n");
    for (name, def) in defs {
        if name.starts_with("WithHeader") {
            continue;
        }
        s.push_str(&format!("### {name}\n\n"));
        fields(def, &mut s);
    }
    Ok(s)
}
