// A reader that goes away early (`evidence-desk capture --check | head -n 1`) closes the pipe
// under the command's standard output. Node reports that as an EPIPE 'error' event, and with
// no listener the process dies with a stack trace. The rest of the output has nowhere to go:
// it is dropped, and the command ends with the exit code of its own work.

const watched = new WeakSet<NodeJS.WritableStream>();

export function dropOutputOnceReaderLeaves(stream: NodeJS.WritableStream = process.stdout): void {
  if (watched.has(stream)) return;
  watched.add(stream);
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    process.stderr.write(`evidence-desk: standard output failed: ${error.message}\n`);
    process.exitCode = 2;
  });
}
