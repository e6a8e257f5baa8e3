// One measuring process of `dsh-context bench --processes N` (bench.ts, inProcesses): it is forked
// fresh, is sent what `measure` takes, times its rounds, and sends back each finished round and then
// its report (or its error), over the IPC channel; it prints nothing.

import { measure, type ChildMessage, type ChildRequest } from './bench.js';
import { CliError } from './env.js';

const send = (message: ChildMessage, then: () => void = () => undefined): void => void process.send!(message, undefined, {}, then);

process.once('message', (request: ChildRequest) => {
  measure(request.workspace, request.options, request.environment, {
    show: false, date: request.date, firstRound: request.firstRound, fresh: true, onRound: (done) => send({ kind: 'round', done }),
  }).then(
    (report) => send({ kind: 'report', report }, () => process.disconnect()),
    (error: unknown) => {
      const cli = error instanceof CliError;
      send({ kind: 'error', message: error instanceof Error ? error.message : String(error), ...(cli && error.hint !== undefined ? { hint: error.hint } : {}), cli }, () => process.disconnect());
    },
  );
});
