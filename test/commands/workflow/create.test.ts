// svc workflow create: the request it sends and the input it refuses before sending anything.
import { refusesInput, useService } from '../../helpers/command-test.js';

const svc = useService();

refusesInput(svc, [
  [['workflow', 'create', '--data', '{"name":"x","steps":[]}'], '--data workflowId: is required'],
]);
