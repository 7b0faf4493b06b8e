import type { Db } from "./db.ts";

// Operator annotations (AnnotationAPI, issue 28): a note at a time (End = Start) or over a span,
// epoch ms, optionally about some variables (none = every chart covering that time).

type AnnotationRow = {
  ID: number;
  Start: number;
  End: number;
  Text: string;
  Tags: string;
  Variables: string;
  Author: string;
  AuthorID: number | null;
  Created: string;
  Updated: string;
  Version: number;
};

export type Annotation = {
  ID: number;
  Start: number;
  End: number;
  Text: string;
  Tags: string[];
  Variables: string[];
  Author: string;
  AuthorID: number | null;
  Created: string;
  Updated: string;
  Version: number;
};

const toAnnotation = (r: AnnotationRow): Annotation => ({
  ...r,
  // bigint columns come back as numbers on both engines (portable-SQL rule), but be sure.
  ID: Number(r.ID),
  Start: Number(r.Start),
  End: Number(r.End),
  AuthorID: r.AuthorID === null ? null : Number(r.AuthorID),
  Version: Number(r.Version),
  Tags: JSON.parse(r.Tags) as string[],
  Variables: JSON.parse(r.Variables) as string[],
});

/**
 * Annotations that touch [start, end] (a point at either edge counts), oldest first. With
 * `variables`, only those about none in particular or about one of them. At most `limit`.
 */
export async function listAnnotations(db: Db, q: { start: number; end: number; variables?: readonly string[]; limit: number }): Promise<{ list: Annotation[]; total: number }> {
  const rows = (await db.all<AnnotationRow>("SELECT * FROM annotations WHERE Start <= ? AND End >= ? ORDER BY Start, ID", q.end, q.start)).map(toAnnotation);
  const wanted = q.variables?.length ? new Set(q.variables) : null;
  // The variable filter runs here: a JSON list per row, and a range holds few annotations.
  const matching = wanted ? rows.filter((a) => a.Variables.length === 0 || a.Variables.some((v) => wanted.has(v))) : rows;
  return { list: matching.slice(0, q.limit), total: matching.length };
}

export async function findAnnotation(db: Db, id: number): Promise<Annotation | undefined> {
  const row = await db.get<AnnotationRow>("SELECT * FROM annotations WHERE ID = ?", id);
  return row && toAnnotation(row);
}

export type NewAnnotation = { Start: number; End: number; Text: string; Tags: string[]; Variables: string[] };

export async function insertAnnotation(db: Db, a: NewAnnotation, author: { name: string; id: number | null }): Promise<number> {
  const now = new Date().toISOString();
  const row = await db.get<{ ID: number }>(
    "INSERT INTO annotations (Start, End, Text, Tags, Variables, Author, AuthorID, Created, Updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ID",
    a.Start,
    a.End,
    a.Text,
    JSON.stringify(a.Tags),
    JSON.stringify(a.Variables),
    author.name,
    author.id,
    now,
    now,
  );
  return Number(row!.ID);
}

export async function updateAnnotation(db: Db, id: number, a: NewAnnotation): Promise<number> {
  await db.run(
    "UPDATE annotations SET Start = ?, End = ?, Text = ?, Tags = ?, Variables = ?, Updated = ?, Version = Version + 1 WHERE ID = ?",
    a.Start,
    a.End,
    a.Text,
    JSON.stringify(a.Tags),
    JSON.stringify(a.Variables),
    new Date().toISOString(),
    id,
  );
  return (await findAnnotation(db, id))!.Version;
}

export async function removeAnnotation(db: Db, id: number): Promise<void> {
  await db.run("DELETE FROM annotations WHERE ID = ?", id);
}
