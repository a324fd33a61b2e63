import type { FieldError } from '../api.ts';

interface Node {
  path: string;
  name: string;
  type: string;
  required: boolean;
  children: Node[];
}

/** The field definitions of a structure as a tree, each named by the API's path for it. */
function nodesOf(def: unknown, path: string, name: string): Node {
  const d = (def && typeof def === 'object' ? def : {}) as Record<string, unknown>;
  const children: Node[] = [];
  const props = d.properties;
  if (props && typeof props === 'object' && !Array.isArray(props))
    for (const [key, child] of Object.entries(props))
      children.push(nodesOf(child, `${path}.properties.${key}`, key));
  if (d.items !== undefined) children.push(nodesOf(d.items, `${path}.items`, '[items]'));
  return {
    path,
    name,
    type: typeof d.type === 'string' ? d.type : '?',
    required: d.required === true,
    children,
  };
}

function allPaths(node: Node, out: string[] = []): string[] {
  out.push(node.path);
  for (const c of node.children) allPaths(c, out);
  return out;
}

/** Each error goes to the deepest field whose path starts it: `….total.type` → `total`. */
function assign(errors: FieldError[], paths: string[]): Map<string, FieldError[]> {
  const byPath = new Map<string, FieldError[]>();
  const sorted = [...paths].sort((a, b) => b.length - a.length);
  for (const e of errors) {
    const owner =
      sorted.find(
        (p) => e.field === p || e.field.startsWith(`${p}.`) || e.field.startsWith(`${p}[`),
      ) ?? 'structure';
    byPath.set(owner, [...(byPath.get(owner) ?? []), e]);
  }
  return byPath;
}

function Item(props: { node: Node; errors: Map<string, FieldError[]> }) {
  const { node } = props;
  const own = props.errors.get(node.path) ?? [];
  return (
    <li class={`outline__item${own.length ? ' outline__item--invalid' : ''}`} data-path={node.path}>
      <div class="outline__row">
        <span class="outline__name">{node.name}</span>
        <span class="badge">{node.type}</span>
        {node.required && <span class="badge badge--pending">required</span>}
      </div>
      {own.length > 0 && (
        <ul class="field__errors outline__errors">
          {own.map((e) => (
            <li key={e.field + e.message}>
              <code>{e.field}</code>: {e.message}
            </li>
          ))}
        </ul>
      )}
      {node.children.length > 0 && (
        <ul class="outline">
          {node.children.map((c) => (
            <Item key={c.path} node={c} errors={props.errors} />
          ))}
        </ul>
      )}
    </li>
  );
}

/**
 * The structure being edited, field by field, with the API's own errors shown beside the field
 * they name. Nothing here checks the rules: they live in the API, which answers with paths.
 */
export function StructureOutline(props: { structure: unknown; errors: FieldError[] }) {
  const root = nodesOf(props.structure, 'structure', 'root');
  const byPath = assign(
    props.errors.filter((e) => e.field === 'structure' || e.field.startsWith('structure.')),
    allPaths(root),
  );
  return (
    <ul class="outline outline--root" aria-label="Fields of the structure">
      <Item node={root} errors={byPath} />
    </ul>
  );
}
