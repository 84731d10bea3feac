// Type-checked only: the types @hookd/hookd ships, from CommonJS.
import hookdModule = require('@hookd/hookd');

export async function check(): Promise<hookdModule.Decision> {
  const hookd = await hookdModule.startHookd();
  const init: hookdModule.InitializeResult = await hookd.initialize({ session: { cwd: '.' } });
  // @ts-expect-error serverInfo.version is a string
  const n: number = init.serverInfo.version;
  return (await hookd.run('Stop')).decision;
}
