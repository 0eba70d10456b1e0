"""attnviz installed like a desktop application (issue 16): `cmake --install` into a folder of
its own, then what the system's own tools make of it: desktop-file-validate and appstreamcli on
the entry and the metainfo, man on the manual page, the shared MIME database and GIO on a saved
scenario, and a double-click (`gio open`, which file managers do) that opens the window with the
file, on a display of its own (Xvfb).

usage: test_install.py BUILD_DIR SOURCE_DIR [unittest options]"""
import gzip
import json
import os
import pathlib
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import unittest

BUILD = pathlib.Path(sys.argv.pop(1))
SOURCE = pathlib.Path(sys.argv.pop(1))
sys.path.insert(0, str(SOURCE / 'tests' / 'gui'))
import attnviz_gui  # noqa: E402  (the Xvfb display of the window tests)

APP_ID = 'io.github.attnviz.Attnviz'
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def run(command, **options):
    return subprocess.run(command, capture_output=True, text=True, timeout=120, **options)


class Installed(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        # ATTNVIZ_INSTALLED_PREFIX=/usr: the .deb installed on this system (check_package.sh),
        # whose MIME and desktop databases dpkg's triggers have updated.
        installed = os.environ.get('ATTNVIZ_INSTALLED_PREFIX')
        cls.system = installed is not None
        cls.prefix = pathlib.Path(installed) if cls.system else pathlib.Path(cls.tmp.name) / 'usr'
        if not cls.system:
            out = run(['cmake', '--install', str(BUILD), '--prefix', str(cls.prefix)])
            if out.returncode != 0:
                raise AssertionError('cmake --install failed:\n' + out.stdout + out.stderr)
        cls.share = cls.prefix / 'share'

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_every_file_lands_where_the_freedesktop_specifications_look(self):
        expected = ['bin/attnviz', f'share/applications/{APP_ID}.desktop', f'share/metainfo/{APP_ID}.metainfo.xml',
                    f'share/mime/packages/{APP_ID}.xml', f'share/icons/hicolor/scalable/apps/{APP_ID}.svg',
                    'share/man/man1/attnviz.1.gz', 'share/doc/attnviz/README.md',
                    'share/locale/ko/LC_MESSAGES/attnviz.mo']
        expected += [f'share/icons/hicolor/{n}x{n}/apps/{APP_ID}.png' for n in PNG_SIZES]
        for relative in expected:
            self.assertTrue((self.prefix / relative).is_file(), relative)
        self.assertTrue(os.access(self.prefix / 'bin' / 'attnviz', os.X_OK))

    def test_the_bundled_model_opens_from_the_installed_binary(self):
        # Found under the prefix the binary sits in (share/attnviz/models), not the build's.
        out = run([str(self.prefix / 'bin' / 'attnviz'), 'compute', '--model', 'bundled:kjv-chars', '--text',
                   'In the beginning'], env={**os.environ, 'ATTNVIZ_MODELS_DIR': ''})
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn('"family": "GPT-2"', out.stdout)

    def test_the_installed_binary_runs_and_says_its_version(self):
        out = run([str(self.prefix / 'bin' / 'attnviz'), '--version'])
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertRegex(out.stdout, r'^attnviz \d+\.\d+\.\d+\n$')

    def test_the_desktop_entry_and_the_metainfo_validate(self):
        out = run(['desktop-file-validate', str(self.share / 'applications' / f'{APP_ID}.desktop')])
        self.assertEqual((out.returncode, out.stdout + out.stderr), (0, ''))
        out = run(['appstreamcli', 'validate', '--no-net', '--explain',
                   str(self.share / 'metainfo' / f'{APP_ID}.metainfo.xml')])
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        metainfo = (self.share / 'metainfo' / f'{APP_ID}.metainfo.xml').read_text()
        version = run([str(self.prefix / 'bin' / 'attnviz'), '--version']).stdout.split()[1]
        self.assertIn(f'<release version="{version}"', metainfo)
        self.assertIn('<screenshot type="default">', metainfo)

    def test_each_icon_has_the_size_its_folder_names(self):
        for n in PNG_SIZES:
            data = (self.share / 'icons' / 'hicolor' / f'{n}x{n}' / 'apps' / f'{APP_ID}.png').read_bytes()
            self.assertEqual(data[:8], b'\x89PNG\r\n\x1a\n')
            width, height, depth, colour = struct.unpack('>IIBB', data[16:26])
            self.assertEqual((width, height, depth, colour), (n, n, 8, 6), f'{n}x{n}: RGBA expected')
        svg = (self.share / 'icons' / 'hicolor' / 'scalable' / 'apps' / f'{APP_ID}.svg').read_text()
        self.assertIn('viewBox="0 0 256 256"', svg)
        self.assertEqual(svg.count('<rect '), 17)  # the tile and its 4 x 4 cells

    def test_the_manual_renders_without_warnings_and_lists_every_command(self):
        page = self.share / 'man' / 'man1' / 'attnviz.1.gz'
        out = run(['man', '--warnings=w', '-l', str(page)], env=dict(os.environ, MANWIDTH='100'))
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stderr, '')
        for heading in ('NAME', 'SYNOPSIS', 'WINDOW OPTIONS', 'COMMANDS', 'EXIT STATUS'):
            self.assertIn(heading, out.stdout)
        roff = gzip.decompress(page.read_bytes()).decode()
        commands = run([str(self.prefix / 'bin' / 'attnviz'), '--help']).stdout
        for line in commands.splitlines():
            words = line.split()
            if len(words) > 1 and words[0] == 'attnviz' and words[1].isalpha() and words[1].islower():
                self.assertIn('.SS attnviz ' + words[1], roff)
        # The same texts as --help: every option the window's help names is in the page.
        for option in ('\\-\\-scenario', '\\-\\-screenshot', '\\-\\-present', '\\-\\-skip\\-masked\\-scores'):
            self.assertIn(option, roff)

    def mime_environment(self):
        if self.system:
            return dict(os.environ)
        database = pathlib.Path(self.tmp.name) / 'share'
        if not (database / 'mime' / 'mime.cache').exists():
            shutil.copytree(self.share, database, dirs_exist_ok=True)
            self.assertEqual(run(['update-mime-database', str(database / 'mime')]).returncode, 0)
            self.assertEqual(run(['update-desktop-database', str(database / 'applications')]).returncode, 0)
        return dict(os.environ, XDG_DATA_DIRS=f'{database}:/usr/share', XDG_DATA_HOME=str(database / 'no-user-data'),
                    PATH=f'{self.prefix / "bin"}:{os.environ["PATH"]}')

    def content_type(self, path, environment):
        out = run(['gio', 'info', '-a', 'standard::content-type', str(path)], env=environment)
        self.assertEqual(out.returncode, 0, out.stderr)
        return out.stdout.strip().splitlines()[-1].split(': ')[1]

    def test_a_saved_scenario_is_an_attnviz_scenario_whatever_its_name(self):
        environment = self.mime_environment()
        folder = pathlib.Path(self.tmp.name)
        scenario = json.loads((SOURCE / 'assets' / 'presets' / 'gqa.json').read_text())
        (folder / 'my work.json').write_text(json.dumps(scenario, indent=2))
        (folder / 'notes.json').write_text('{"format": "something else", "a": 1}\n')
        self.assertEqual(self.content_type(folder / 'my work.json', environment), 'application/x-attnviz-scenario')
        self.assertEqual(self.content_type(folder / 'notes.json', environment), 'application/json')
        out = run(['gio', 'mime', 'application/x-attnviz-scenario'], env=environment)
        self.assertIn(f'Default application for “application/x-attnviz-scenario”: {APP_ID}.desktop', out.stdout)

    def test_double_clicking_a_scenario_opens_it_in_the_window(self):
        environment = self.mime_environment()
        folder = pathlib.Path(self.tmp.name) / 'double-click'
        folder.mkdir()
        scenario = json.loads((SOURCE / 'assets' / 'presets' / 'gqa.json').read_text())
        scenario['sentence'] = 'opened by a double click'
        scenario.pop('tokens', None)
        scenario.pop('embeddings', None)
        path = folder / 'double click.json'
        path.write_text(json.dumps(scenario, indent=2))
        config = folder / 'config'
        display = attnviz_gui.Display()
        try:
            environment.update(DISPLAY=display.name, XDG_CONFIG_HOME=str(config), HOME=str(folder))
            # The window outlives gio: its output goes to a file, not to a pipe gio's caller waits on.
            with open(folder / 'window.log', 'w') as log:
                opened = subprocess.run(['gio', 'open', str(path)], env=environment, stdout=log, stderr=log, timeout=60)
            self.assertEqual(opened.returncode, 0, (folder / 'window.log').read_text())
            autosave = config / 'attnviz' / 'autosave.json'
            end = time.monotonic() + 120
            sentence = None
            while time.monotonic() < end and sentence != scenario['sentence']:
                time.sleep(0.2)
                try:
                    sentence = json.loads(autosave.read_text()).get('sentence')
                except (OSError, ValueError):
                    pass
            self.assertEqual(sentence, scenario['sentence'],
                             'the window did not open the double-clicked file:\n' + (folder / 'window.log').read_text())
        finally:
            run(['pkill', '-f', str(path)])
            display.close()


    def test_the_installed_window_speaks_korean_on_a_korean_desktop(self):
        # The catalogue is found under the prefix the binary sits in (share/locale), not the build's.
        folder = pathlib.Path(self.tmp.name) / 'korean'
        folder.mkdir()
        display = attnviz_gui.Display()
        try:
            environment = dict(os.environ, DISPLAY=display.name, XDG_CONFIG_HOME=str(folder / 'config'),
                               HOME=str(folder), LANG='ko_KR.UTF-8', ATTNVIZ_WIDGET_LOG=str(folder / 'widgets.json'))
            for name in ('LANGUAGE', 'LC_ALL', 'LC_MESSAGES', 'ATTNVIZ_LANGUAGE', 'ATTNVIZ_LOCALE_DIR'):
                environment.pop(name, None)
            out = run([str(self.prefix / 'bin' / 'attnviz'), '--screenshot', str(folder / 'shot.png')],
                      env=environment)
        finally:
            display.close()
        self.assertEqual(out.returncode, 0, out.stderr)
        widgets = json.loads((folder / 'widgets.json').read_text())
        self.assertEqual(widgets['menu_titles'], ['파일', '편집', '보기', '수업', '도움말'])

    def test_a_file_that_cannot_be_opened_still_opens_the_window_which_says_why(self):
        folder = pathlib.Path(self.tmp.name) / 'broken'
        folder.mkdir()
        broken = folder / 'broken.json'
        broken.write_text('{"format": "attnviz-scenario/1", "sentence": "a b", "d_model": "four"}\n')
        display = attnviz_gui.Display()
        try:
            environment = dict(os.environ, DISPLAY=display.name, XDG_CONFIG_HOME=str(folder / 'config'), HOME=str(folder))
            out = run([str(self.prefix / 'bin' / 'attnviz'), '--screenshot', str(folder / 'shot.png'), str(broken)],
                      env=environment)
        finally:
            display.close()
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn(str(broken), out.stderr)
        self.assertIn('d_model', out.stderr)
        self.assertTrue((folder / 'shot.png').is_file())


if __name__ == '__main__':
    unittest.main()
