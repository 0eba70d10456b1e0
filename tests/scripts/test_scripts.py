"""The first two commands of the README on machines that are not a developer's (issue 11):
install-deps.sh as root, with sudo, and as a user without sudo (a clear list of the missing
packages, exit 1, instead of "sudo: command not found"); run-app.sh without a display (what to
do instead of a bare exit 1). The programs they call are stand-ins in a PATH of their own, so
nothing is installed or built here.

usage: test_scripts.py SOURCE_DIR"""
import os
import pathlib
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

SOURCE = pathlib.Path(sys.argv.pop(1) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
BASH = shutil.which('bash')


def write_tool(folder, name, body):
    path = folder / name
    path.write_text('#!' + BASH + '\n' + body)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


class Tools:
    """A folder of stand-in programs, the only PATH the scripts get (with cat and the shell)."""

    def __init__(self, root, uid, installed=(), sudo=False, display=False, korean_locale=True):
        self.bin = root / 'bin'
        self.bin.mkdir()
        self.log = root / 'calls.log'
        for real in ('cat', 'dirname', 'grep'):
            os.symlink(shutil.which(real), self.bin / real)
        write_tool(self.bin, 'id', f'echo {uid}\n')
        installed_list = ' '.join(installed)
        write_tool(self.bin, 'dpkg-query', f'''for p in {installed_list}; do
  [ "${{@: -1}}" = "$p" ] && {{ echo installed; exit 0; }}
done
exit 1
''')
        write_tool(self.bin, 'apt-get', f'echo "apt-get $*" >> {self.log}\n')
        write_tool(self.bin, 'locale', 'echo C.utf8' + ('; echo ko_KR.utf8' if korean_locale else '') + '\n')
        write_tool(self.bin, 'localedef', f'echo "localedef $*" >> {self.log}\n')
        if sudo:
            write_tool(self.bin, 'sudo', f'echo "sudo $*" >> {self.log}\n"$@"\n')
        self.env = {'PATH': str(self.bin), 'HOME': str(root)}
        if display:
            self.env['DISPLAY'] = ':99'

    def calls(self):
        return self.log.read_text() if self.log.exists() else ''


class InstallDeps(unittest.TestCase):
    def run_script(self, tools):
        return subprocess.run([BASH, str(SOURCE / 'scripts' / 'install-deps.sh')], env=tools.env, capture_output=True,
                              text=True, timeout=60)

    def test_nothing_missing_does_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            every = [line.split('#')[0] for line in (SOURCE / 'scripts' / 'install-deps.sh').read_text().splitlines()]
            names = ' '.join(every).split('packages=(')[1].split(')')[0].split()
            tools = Tools(pathlib.Path(tmp), 1000, installed=names)
            out = self.run_script(tools)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertEqual(out.stderr, '')
            self.assertEqual(tools.calls(), '')

    def test_root_installs_with_apt_get(self):
        with tempfile.TemporaryDirectory() as tmp:
            tools = Tools(pathlib.Path(tmp), 0)
            out = self.run_script(tools)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn('apt-get install', tools.calls())
            self.assertNotIn('sudo', tools.calls())
            self.assertIn('xdotool', tools.calls())

    def test_root_generates_the_korean_locale_when_it_is_missing(self):
        with tempfile.TemporaryDirectory() as tmp:
            every = [line.split('#')[0] for line in (SOURCE / 'scripts' / 'install-deps.sh').read_text().splitlines()]
            names = ' '.join(every).split('packages=(')[1].split(')')[0].split()
            tools = Tools(pathlib.Path(tmp), 0, installed=names, korean_locale=False)
            out = self.run_script(tools)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn('localedef -i ko_KR -f UTF-8 ko_KR.UTF-8', tools.calls())
            self.assertNotIn('apt-get', tools.calls())

    def test_a_user_with_sudo_installs_through_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            tools = Tools(pathlib.Path(tmp), 1000, sudo=True)
            out = self.run_script(tools)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn('sudo apt-get install', tools.calls())

    def test_a_user_without_sudo_gets_the_list_to_ask_for(self):
        with tempfile.TemporaryDirectory() as tmp:
            tools = Tools(pathlib.Path(tmp), 1000, installed=['cmake'])
            out = self.run_script(tools)
            self.assertEqual(out.returncode, 1)
            self.assertNotIn('command not found', out.stderr)
            self.assertIn('no sudo', out.stderr)
            self.assertIn('apt-get install --no-install-recommends', out.stderr)
            self.assertIn('libimgui-dev', out.stderr)
            self.assertNotIn(' cmake ', out.stderr)  # installed already: not asked for
            self.assertEqual(tools.calls(), '')


class RunApp(unittest.TestCase):
    """run-app.sh in a copy of the scripts folder, with a stand-in build and attnviz."""

    def run_app(self, args, display=False, xvfb=False):
        self.tmp = tempfile.TemporaryDirectory()
        root = pathlib.Path(self.tmp.name)
        tree = root / 'tree'
        (tree / 'scripts').mkdir(parents=True)
        shutil.copy(SOURCE / 'scripts' / 'run-app.sh', tree / 'scripts')
        tools = Tools(root, 1000, display=display)
        for name in ('install-deps.sh', 'build.sh'):
            write_tool(tree / 'scripts', name, f'echo "{name} $*" >> {tools.log}\n')
        (tree / 'build' / 'release' / 'app').mkdir(parents=True)
        write_tool(tree / 'build' / 'release' / 'app', 'attnviz', f'echo "attnviz $*" >> {tools.log}\n')
        if xvfb:
            write_tool(tools.bin, 'xvfb-run', f'echo "xvfb-run $*" >> {tools.log}\n')
        out = subprocess.run([BASH, str(tree / 'scripts' / 'run-app.sh')] + args, env=tools.env, capture_output=True,
                             text=True, timeout=60)
        return out, tools.calls()

    def tearDown(self):
        self.tmp.cleanup()

    def test_without_a_display_it_builds_then_says_what_to_do(self):
        out, calls = self.run_app([])
        self.assertEqual(out.returncode, 1)
        self.assertIn('build.sh', calls)
        self.assertNotIn('\nattnviz ', '\n' + calls)  # the binary never ran
        self.assertIn('no display', out.stderr)
        self.assertIn('xvfb-run -a', out.stderr)
        self.assertIn('--screenshot', out.stderr)
        self.assertIn('compute', out.stderr)

    def test_it_builds_the_window_alone_without_the_tests(self):
        out, calls = self.run_app(['--scenario', 'preset:gqa'], display=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn('build.sh release attnviz', calls)

    def test_a_screenshot_without_a_display_runs_in_a_virtual_one(self):
        out, calls = self.run_app(['--scenario', 'preset:gqa', '--screenshot', 'x.png'], xvfb=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn('xvfb-run -a', calls)
        self.assertIn('--screenshot x.png', calls)

    def test_subcommands_need_no_display(self):
        for command in ('compute', 'tokenize', 'kv-cache', 'comput'):
            out, calls = self.run_app([command, '--scenario', 'preset:gqa'])
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn(f'attnviz {command} --scenario preset:gqa', calls)
            self.tmp.cleanup()

    def test_with_a_display_it_opens_the_window(self):
        out, calls = self.run_app(['--scenario', 'preset:gqa'], display=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn('attnviz --scenario preset:gqa', calls)


if __name__ == '__main__':
    unittest.main()
