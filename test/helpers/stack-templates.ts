/**
 * The templates of a synthesized stack and of its nested stacks (infra/constructs/route-stacks.ts),
 * read from a cloud assembly directory, and one flattened view of them for the template tests.
 *
 * The flattened view is the deployed system as one template: the nested stacks' resources merged
 * into the stack's, a nested parameter replaced by the value the parent passes, and a parent's
 * `Fn::GetAtt <nested stack>.Outputs.X` by the output's value. So a test reads "the method's
 * integration names this function" whichever stack either lives in. Logical ids must then be
 * unique across the stacks; a collision throws, as it would make the view lie.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

export interface StackTemplate {
  /** The stack's name, or for a nested stack its logical id in its parent. */
  name: string;
  /** Set on a nested stack: the name of its parent. */
  parent?: string;
  template: Json;
  /** The template file's size, as CloudFormation receives it. */
  bytes: number;
}

const NESTED_STACK = 'AWS::CloudFormation::Stack';

/** The nested template file a nested stack resource's TemplateURL names (its asset object key). */
function nestedTemplateFile(assemblyDir: string, manifest: Json, resource: Json): string {
  // The URL ends with the object key, `<sha256>.json`, whether the bucket is a token or literal.
  const key = /([0-9a-f]{64}\.json)"?\]*\}*$/.exec(JSON.stringify(resource.Properties.TemplateURL))?.[1];
  if (!key) throw new Error(`no template object key in ${JSON.stringify(resource.Properties.TemplateURL)}`);
  for (const file of Object.values<Json>(manifest.files)) {
    for (const dest of Object.values<Json>(file.destinations)) {
      if (dest.objectKey === key) return path.join(assemblyDir, file.source.path);
    }
  }
  throw new Error(`no asset in the manifest for the nested template ${key}`);
}

/** The stack's template first, then every nested stack's, depth first. */
export function stackTemplates(assemblyDir: string, artifactId: string): StackTemplate[] {
  const manifest = JSON.parse(readFileSync(path.join(assemblyDir, `${artifactId}.assets.json`), 'utf8'));
  const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
  const out: StackTemplate[] = [];
  const visit = (name: string, file: string, parent?: string) => {
    const template = read(file);
    out.push({ name, parent, template, bytes: statSync(file).size });
    for (const [id, r] of Object.entries<Json>(template.Resources ?? {})) {
      if (r.Type === NESTED_STACK) visit(id, nestedTemplateFile(assemblyDir, manifest, r), name);
    }
  };
  const { properties } = read(path.join(assemblyDir, 'manifest.json')).artifacts[artifactId];
  visit(properties.stackName ?? artifactId, path.join(assemblyDir, properties.templateFile));
  return out;
}

/** Deep copy of `value` with `swap` applied to every object first (its result replaces the object when defined). */
function mapJson(value: Json, swap: (node: Json) => Json | undefined): Json {
  if (Array.isArray(value)) return value.map((v) => mapJson(v, swap));
  if (value && typeof value === 'object') {
    const swapped = swap(value);
    if (swapped !== undefined) return swapped;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapJson(v, swap)]));
  }
  return value;
}

/** One template: the stack's with its nested stacks' resources merged in and the references across them resolved. */
export function flattenedTemplate(assemblyDir: string, artifactId: string): Json {
  const stacks = stackTemplates(assemblyDir, artifactId);
  const childrenOf = (name: string) => stacks.filter((s) => s.parent === name);

  const flatten = (stack: StackTemplate): Json => {
    const template = structuredClone(stack.template);
    const outputsOf = new Map<string, Record<string, Json>>();
    for (const child of childrenOf(stack.name)) {
      const passed: Record<string, Json> = template.Resources[child.name].Properties.Parameters ?? {};
      const flat = flatten(child);
      // The parameter's value as the parent passes it, an expression in the parent's template.
      const resolved = mapJson(flat, (node) => {
        const keys = Object.keys(node);
        if (keys.length === 1 && keys[0] === 'Ref' && node.Ref in passed) return structuredClone(passed[node.Ref]);
        return undefined;
      });
      for (const [id, r] of Object.entries<Json>(resolved.Resources)) {
        if (id in template.Resources) throw new Error(`logical id ${id} is in ${stack.name} and in its nested stack ${child.name}`);
        template.Resources[id] = r;
      }
      outputsOf.set(child.name, resolved.Outputs ?? {});
    }
    return mapJson(template, (node) => {
      const getAtt = node['Fn::GetAtt'];
      if (!Array.isArray(getAtt) || Object.keys(node).length !== 1) return undefined;
      const [id, attribute] = getAtt as [string, string];
      const outputs = outputsOf.get(id);
      if (!outputs || !attribute.startsWith('Outputs.')) return undefined;
      const output = outputs[attribute.slice('Outputs.'.length)];
      if (!output) throw new Error(`${stack.name} reads ${attribute} of ${id}, which has no such output`);
      return structuredClone(output.Value);
    });
  };
  return flatten(stacks[0]!);
}
