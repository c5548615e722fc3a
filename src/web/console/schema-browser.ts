/**
 * The schema browser beside the console editor, built from the `describe schema` answer:
 * pick a source, narrow its fields by name or description, and see each field's type and
 * whether it filters and facets; its fieldsets, indicators and full-text indexes; the
 * sub-fields of entity fields. Selecting a name inserts it at the cursor in the editor.
 */
import { make } from './dom.ts';
import type { FieldDoc, SchemaDoc } from './schema-completion.ts';

type Insert = (text: string) => void;

function insertButton(name: string, insert: Insert, description: string): HTMLButtonElement {
  const button = make('button', { type: 'button', class: 'link-button schema-name' }, name);
  button.title = `Insert ${name}: ${description}`;
  button.addEventListener('click', () => insert(name));
  return button;
}

function traits(field: FieldDoc): string {
  return [
    field.type,
    field.is_filter ? 'filter' : '',
    field.is_facet ? 'facet' : '',
    field.is_multivalue ? 'many values' : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

function fieldItem(name: string, field: FieldDoc, schema: SchemaDoc, insert: Insert): HTMLLIElement {
  const item = make('li', { 'data-field': name });
  item.append(
    insertButton(name, insert, field.description ?? ''),
    make('span', { class: 'muted' }, ` ${traits(field)}`),
  );
  if (field.description) item.append(make('div', { class: 'schema-description' }, field.description));
  const entity = field.is_entity ? schema.entities?.[field.type] : undefined;
  if (entity) {
    const subs = make('details');
    subs.append(make('summary', {}, `${field.type} fields`));
    const list = make('ul');
    for (const [sub, doc] of Object.entries(entity.fields)) {
      const li = make('li');
      li.append(
        insertButton(`${name}.${sub}`, insert, doc.description ?? ''),
        make('span', { class: 'muted' }, ` ${doc.type}`),
      );
      list.append(li);
    }
    subs.append(list);
    item.append(subs);
  }
  return item;
}

export function renderSchemaBrowser(panel: HTMLElement, schema: SchemaDoc | undefined, insert: Insert): void {
  panel.replaceChildren();
  if (!schema) {
    panel.append(make('p', { class: 'muted' }, 'The schema could not be loaded.'));
    return;
  }
  const sources = Object.keys(schema.sources);
  const controls = make('div', { class: 'schema-controls' });
  const sourceLabel = make('label', { for: 'schema-source' }, 'Source');
  const sourceSelect = make('select', { id: 'schema-source' });
  for (const name of sources) sourceSelect.append(make('option', { value: name }, name));
  const filterLabel = make('label', { for: 'schema-filter' }, 'Find a field');
  const filterInput = make('input', { id: 'schema-filter', type: 'search', placeholder: 'year, funder, citations' });
  controls.append(sourceLabel, sourceSelect, filterLabel, filterInput);
  const body = make('div', { id: 'schema-fields', 'aria-live': 'polite' });
  panel.append(controls, body);

  const draw = () => {
    const source = schema.sources[sourceSelect.value];
    if (!source) return;
    const needle = filterInput.value.trim().toLowerCase();
    const matches = Object.entries(source.fields).filter(
      ([name, f]) => needle === '' || name.includes(needle) || (f.description ?? '').toLowerCase().includes(needle),
    );
    const list = make('ul', { class: 'schema-list' });
    for (const [name, field] of matches) list.append(fieldItem(name, field, schema, insert));
    const parts: HTMLElement[] = [
      make('p', { class: 'muted' }, `${matches.length} of ${Object.keys(source.fields).length} fields`),
      list,
    ];
    const extra = (title: string, names: readonly string[]) => {
      if (names.length === 0) return;
      const block = make('details');
      block.append(make('summary', {}, `${title} (${names.length})`));
      const ul = make('ul', { class: 'schema-list' });
      for (const name of names) {
        const li = make('li');
        li.append(insertButton(name, insert, title));
        ul.append(li);
      }
      block.append(ul);
      parts.push(block);
    };
    extra('Fieldsets', source.fieldsets ?? []);
    extra('Indicators', Object.keys(source.metrics ?? {}));
    extra('Full-text indexes', source.search_fields ?? []);
    body.replaceChildren(...parts);
  };
  sourceSelect.addEventListener('change', draw);
  filterInput.addEventListener('input', draw);
  draw();
}
