import type { Database } from '@fanpilot/db';
import type {
  Kysely,
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/** A query as fault injection sees it: what it does, to which table, and its operation tree. */
export interface QueryShape {
  kind: 'select' | 'insert' | 'update' | 'delete' | 'merge' | 'raw' | 'other';
  /** The table written (insert, update, delete) or first read (select); undefined for raw SQL. */
  table: string | undefined;
  node: RootOperationNode;
}

export interface Fault {
  /** Which queries fail. */
  when: (query: QueryShape) => boolean;
  /** The error each failing query throws (before it reaches the database). */
  error: () => Error;
  /** How many matching queries fail; every one when unset. */
  times?: number;
}

const KINDS: Record<string, QueryShape['kind']> = {
  SelectQueryNode: 'select',
  InsertQueryNode: 'insert',
  UpdateQueryNode: 'update',
  DeleteQueryNode: 'delete',
  MergeQueryNode: 'merge',
  RawNode: 'raw',
};

/** The first table name found in a part of a query's tree. */
function tableIn(node: unknown): string | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const n = node as { kind?: string; table?: { identifier?: { name?: string } } };
  if (n.kind === 'TableNode') return n.table?.identifier?.name;
  for (const value of Object.values(node)) {
    const found = Array.isArray(value) ? value.map(tableIn).find(Boolean) : tableIn(value);
    if (found) return found;
  }
  return undefined;
}

function shapeOf(node: RootOperationNode): QueryShape {
  const n = node as RootOperationNode & { into?: unknown; table?: unknown; from?: unknown; using?: unknown };
  const target =
    node.kind === 'InsertQueryNode'
      ? n.into
      : node.kind === 'UpdateQueryNode'
        ? n.table
        : node.kind === 'MergeQueryNode'
          ? n.into
          : n.from;
  return { kind: KINDS[node.kind] ?? 'other', table: tableIn(target), node };
}

/** Whether a query's tree carries this value (a parameter such as `'Creatorai'`, say). */
export function carriesValue(node: OperationNode, value: unknown): boolean {
  const seen = (part: unknown): boolean => {
    if (part === value) return true;
    if (!part || typeof part !== 'object') return false;
    return Object.values(part).some((v) => (Array.isArray(v) ? v.some(seen) : seen(v)));
  };
  return seen(node);
}

/**
 * `db` with faults: a query that matches a fault throws its error instead of running, as if the
 * process died or the database refused right there. In a transaction the throw rolls it back. The
 * production code is untouched: the test hands this handle where the code takes its database.
 */
export function withFaults(db: Kysely<Database>, ...faults: Fault[]) {
  const left = faults.map((f) => f.times ?? Number.POSITIVE_INFINITY);
  let thrown = 0;
  const plugin: KyselyPlugin = {
    transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
      const shape = shapeOf(node);
      const i = faults.findIndex((f, k) => left[k]! > 0 && f.when(shape));
      if (i >= 0) {
        left[i]!--;
        thrown++;
        throw faults[i]!.error();
      }
      return node;
    },
    async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      return result;
    },
  };
  return {
    db: db.withPlugin(plugin),
    /** How many queries have failed so far. */
    thrown: () => thrown,
  };
}

/** The write of an AI reply (a `Creatorai` message): failing it is a crash between the model call and the write. */
export const writesAiReply = (query: QueryShape): boolean =>
  query.kind === 'insert' && query.table === 'messages' && carriesValue(query.node, 'Creatorai');
