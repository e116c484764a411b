// Writes the e2e workspace (example files) and the code-server user settings.
//   node prepare.mjs <work-dir> <python>
import fs from 'node:fs';
import path from 'node:path';

const [work, python] = process.argv.slice(2);
if (!work || !python) {
  console.error('usage: node prepare.mjs <work-dir> <python>');
  process.exit(2);
}
const ws = path.join(work, 'workspace');
fs.mkdirSync(ws, { recursive: true });

const e2eWorkspace = process.env.EVALSUBMIT_E2E_WORKSPACE || 'qa';
const header = (workspace) => `from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric, RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(workspace="${workspace}")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(
        agent="simple_agent",
        agent_config="configs/agent.yaml",
        resources_server="mcqa",
    )
)
`;

function tasksetRef(env = process.env) {
  const t = env.EVALSUBMIT_E2E_TASKSET || 'smoke';
  return t.includes('/') ? t : `${env.EVALSUBMIT_E2E_WORKSPACE || 'qa'}/${t}`;
}
const taskset = tasksetRef();
const files = {
  // step 1 (squiggle) and step 2 (hover on the runner constructor)
  'mixed_shape.py': `${header('qa')}m = ExactMatchMetric(reference="{{item.answer}}", candidate="{{item.output}}")
rows = [{"question": "2+2?", "answer": "4"}]

job = client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner, metric=m, dataset=rows)
`,
  // step 3 (ES102 quick fix)
  'row_option.py': `${header('qa')}
job = client.evaluator.submit(
    tasks=TasksetRef("qa/smoke"),
    target=runner,
    config=RunConfig(parallelism=16),
)
`,
  // step 4 (submit to the real platform)
  'submit_ok.py': `${header(e2eWorkspace)}
job = client.evaluator.submit(tasks=TasksetRef(${JSON.stringify(taskset)}), target=runner)
`,
};
for (const [name, text] of Object.entries(files)) {
  fs.writeFileSync(path.join(ws, name), text);
}

const settings = {
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'extensions.ignoreRecommendations': true,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'editor.hover.delay': 150,
  'editor.minimap.enabled': false,
  'files.autoSave': 'off',
  'evalsubmit.interpreter': [python],
  'evalsubmit.debounceMs': 50,
  'evalsubmit.trace.server': 'messages',
  'evalsubmit.logLevel': 'debug',
  'evalsubmit.showNotifications': 'always',
};
if (process.env.EVALSUBMIT_E2E_PLATFORM_URL) {
  settings['evalsubmit.platform.baseUrl'] = process.env.EVALSUBMIT_E2E_PLATFORM_URL;
  if (process.env.EVALSUBMIT_E2E_WORKSPACE) {
    settings['evalsubmit.platform.workspace'] = process.env.EVALSUBMIT_E2E_WORKSPACE;
  }
  settings['evalsubmit.platform.pollIntervalS'] = 1;
}
const userDir = path.join(work, 'user-data', 'User');
fs.mkdirSync(userDir, { recursive: true });
fs.writeFileSync(path.join(userDir, 'settings.json'), JSON.stringify(settings, null, 2));
