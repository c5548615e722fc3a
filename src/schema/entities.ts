import { operatorsForScalar } from './operators.ts';
import { ENTITY_SPECS, type SubRow } from '../model/entities.ts';
import type { EntityDescriptor, EntityFieldDescriptor, EntityName } from './types.ts';

function sub([name, type, multi, description]: SubRow): EntityFieldDescriptor {
  return Object.freeze({
    name,
    type,
    isMultivalue: multi,
    description,
    operators: Object.freeze(operatorsForScalar(type, { multi, counter: false, subfield: true })),
  });
}

/** Every entity kind with its sub-fields and facet display fields. */
export const ENTITIES: ReadonlyMap<EntityName, EntityDescriptor> = new Map(
  Object.entries(ENTITY_SPECS).map(([name, e]) => [
    name as EntityName,
    Object.freeze({
      name: name as EntityName,
      description: e.description,
      fields: Object.freeze(e.fields.map(sub)),
      displayFields: Object.freeze([...e.display]),
    }),
  ]),
);
