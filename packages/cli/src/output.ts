// Writing to stdout before the process exits. `process.exit` does not wait for a pipe to take
// what was written: under Node 22 and 24 a large export piped to another program was cut
// short. Awaiting the write's callback hands every byte to the OS first.

/** Writes `text` to stdout and resolves once it has been handed on. */
export function writeStdout(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(text, (error) => (error ? reject(error) : resolve()));
  });
}
