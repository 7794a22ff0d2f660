// svc workflow create: the request it sends and the input it refuses before sending anything.
import { refusesInput, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();

refusesInput(svc, [[['workflow', 'create', '--data', '{"name":"x","steps":[]}'], '--data workflowId: is required']]);
