/**
 * The import page's column mapping, for a file whose columns are not the import's own (another
 * tool's export): each column of the file gets a "Use as" choice, guessed from its name; the page
 * then writes the file in the import's columns (console/src/import-mapping.ts) and goes on as for
 * a file in that form.
 */
import { useState } from 'preact/hooks';
import { errorText } from '../api/client';
import type { ImportFile } from '../import-file';
import { applyMapping, guessUses, mappingProblem, USES, type Mapped, type Use } from '../import-mapping';
import { fetchAllRequisitions } from '../recruiting';

export function ColumnMapping({ file, name, onMapped }: { file: ImportFile; name: string; onMapped: (m: Mapped) => void }) {
  const [uses, setUses] = useState<Use[]>(() => guessUses(file.header));
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const problem = mappingProblem(uses);
  const sample = file.rows[0]?.cells ?? [];

  const use = async () => {
    setError(undefined);
    setBusy(true);
    try {
      const needsReqs = uses.includes('req_title');
      const requisitions = needsReqs ? await fetchAllRequisitions() : [];
      onMapped(applyMapping(file, uses, { requisitions }));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="mapping-title">
      <h2 id="mapping-title">Map the columns of {name}</h2>
      <p class="hint">
        Choose what each column holds; a first and a last name become one name, a requisition is found by its title and a stage by its
        label. Nothing is sent until you import.
      </p>
      <div class="scroll">
        <table>
          <caption class="sr-only">The file's columns and what each is used as</caption>
          <thead>
            <tr>
              <th scope="col">Column</th>
              <th scope="col">First row</th>
              <th scope="col">Use as</th>
            </tr>
          </thead>
          <tbody>
            {file.header.map((h, i) => (
              <tr key={`${i}:${h}`}>
                <th scope="row" id={`map-col-${i}`}>
                  {h || `Column ${i + 1}`}
                </th>
                <td>{sample[i] ?? ''}</td>
                <td>
                  <select
                    id={`map-use-${i}`}
                    aria-label={`Use the column ${h || i + 1} as`}
                    value={uses[i] ?? ''}
                    onChange={(e) => setUses(uses.map((u, j) => (j === i ? (e.currentTarget.value as Use) : u)))}
                  >
                    {Object.entries(USES).map(([v, label]) => (
                      <option key={v} value={v}>
                        {label}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {problem && (
        <p class="alert warning" role="status">
          {problem}
        </p>
      )}
      {error && (
        <p class="alert error" role="alert">
          {error}
        </p>
      )}
      <p class="actions">
        <button type="button" class="primary" onClick={use} disabled={busy || !!problem}>
          {busy ? 'Mapping…' : 'Use this mapping'}
        </button>
      </p>
    </section>
  );
}

/** The values the mapping could not turn into a requisition or a stage: those rows will fail. */
export function MappingWarnings({ m }: { m: Mapped }) {
  const list = (map: Map<string, number>) => [...map].map(([v, n]) => `“${v}” (${n} ${n === 1 ? 'row' : 'rows'})`).join(', ');
  const lines = [
    m.unknownTitles.size > 0 && `No requisition has the title ${list(m.unknownTitles)}.`,
    m.ambiguousTitles.size > 0 && `Several requisitions have the title ${list(m.ambiguousTitles)}: use their ids instead.`,
    m.unknownStages.size > 0 && `No stage has the label ${list(m.unknownStages)}.`,
  ].filter(Boolean);
  if (!lines.length) return null;
  return (
    <div class="alert warning" role="status">
      {lines.map((l) => (
        <p key={String(l)}>{l}</p>
      ))}
      <p>Those rows will not be imported; the check and the download of the rows not imported name them.</p>
    </div>
  );
}
