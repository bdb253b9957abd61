import { CreatePersonLabelRequest, PersonLabel, UpdatePersonLabelRequest } from '../../../../shared/src/schemas/labels';
import { createPersonLabel, deletePersonLabel, personLabels, updatePersonLabel } from '../../commands/personLabels';
import { personLabelExample } from '../examples';
import { labelRoutesOf } from '../labelRoutes';

export const labelRoutes = labelRoutesOf({
  kind: personLabels,
  path: '/labels/people',
  tag: 'Person labels',
  readScope: 'checkins:read',
  label: PersonLabel,
  example: personLabelExample,
  target: 'person_label',
  create: {
    summary: 'Create a person label',
    description:
      'Creates a label of the account for person check-ins. Names are unique in the account, compared case-insensitively.',
    examples: { request: { name: 'Contractor', color: '#1a2b3c' }, response: personLabelExample },
    body: CreatePersonLabelRequest,
    run: createPersonLabel,
  },
  update: {
    summary: 'Rename or recolor a person label (null clears the color)',
    examples: { request: { color: null }, response: { ...personLabelExample, color: null } },
    body: UpdatePersonLabelRequest,
    run: updatePersonLabel,
  },
  remove: {
    summary: 'Delete a person label (it is taken off every check-in that carries it)',
    description: 'Deletes the label and takes it off every check-in that carries it.',
    run: deletePersonLabel,
  },
});
