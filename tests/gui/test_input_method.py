"""Korean through a real input method (issue 17): ibus with the hangul engine on the test's
own display and D-Bus session, attnviz with a Korean UTF-8 locale and XMODIFIERS=@im=ibus,
real key events (xdotool, the 2-set layout: d k s s u d g k t p d y is 안녕하세요).

Checks what a Korean user sees and keeps: the syllable being composed at the caret (the
window's widget log says what it draws there, a screenshot shows it), the committed text in
the autosave, Backspace during composition editing only the composition, and a pending
syllable committed into the field it was typed in when the user clicks another one.

usage: test_input_method.py [unittest arguments]   (ATTNVIZ_BIN names the binary)"""
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import attnviz_gui  # noqa: E402
from attnviz_gui import Display, GuiError, Session  # noqa: E402

LOCALE = 'ko_KR.UTF-8'


def missing_requirement():
    """What this test needs that is not installed (scripts/install-deps.sh installs all)."""
    tool = attnviz_gui.have_tools()
    if tool:
        return f'{tool} is not installed'
    for tool in ('dbus-run-session', 'ibus-daemon', 'ibus', 'xprop'):
        if shutil.which(tool) is None:
            return f'{tool} is not installed'
    if not pathlib.Path('/usr/share/ibus/component/hangul.xml').exists():
        return 'the ibus hangul engine (ibus-hangul) is not installed'
    locales = subprocess.run(['locale', '-a'], capture_output=True, text=True).stdout.lower().split()
    if 'ko_kr.utf8' not in locales:
        return f'the {LOCALE} locale is not generated'
    return None


MISSING = missing_requirement()


def wait_for(predicate, timeout, what):
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise GuiError(f'timed out after {timeout:.0f} s waiting for {what}')
        time.sleep(0.1)


class Ibus:
    """ibus-daemon with its XIM bridge and the hangul engine in Hangul mode, in a D-Bus session
    of its own, on `display`; its settings in `config` (GSettings' keyfile backend: the
    machine's settings stay untouched)."""

    def __init__(self, display, config):
        settings = config / 'glib-2.0' / 'settings'
        settings.mkdir(parents=True, exist_ok=True)
        (settings / 'keyfile').write_text("[org/freedesktop/ibus/engine/hangul]\ninitial-input-mode='hangul'\n")
        self.env = dict(os.environ, DISPLAY=display.name, XDG_CONFIG_HOME=str(config), GSETTINGS_BACKEND='keyfile',
                        LANG=LOCALE, LC_ALL=LOCALE)
        self.log = config / 'ibus.log'
        # Its X bridge (ibus-x11) connects once: on a loaded machine it can miss the display and
        # never offer the input method, so a daemon that has not within 30 s is started again.
        for attempt in (1, 2, 3):
            try:
                self.start()
                wait_for(lambda: self.alive() and self.ibus('engine', 'hangul'), 60, 'ibus to select the hangul engine')
                wait_for(lambda: self.alive() and b'ibus' in self.xprop_servers(), 30,
                         'ibus to offer its X input method (XIM_SERVERS on the root window)')
                return
            except GuiError as error:
                self.close()
                if attempt == 3:
                    raise GuiError(f'{error} (3 tries)\nibus said:\n{self.log.read_text(errors="replace")[-3000:]}') from None

    def start(self):
        with open(self.log, 'ab') as log:
            self.process = subprocess.Popen(
                ['dbus-run-session', '--', 'ibus-daemon', '--xim', '--panel=disable', '--replace', '--verbose'],
                env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def alive(self):
        if self.process.poll() is not None:
            raise GuiError(f'ibus-daemon exited with {self.process.returncode}:\n{self.log.read_text(errors="replace")}')
        return True

    def ibus(self, *args):
        result = subprocess.run(['ibus', *args], env=self.env, capture_output=True, timeout=30)
        return result.returncode == 0

    def xprop_servers(self):
        result = subprocess.run(['xprop', '-root', 'XIM_SERVERS'], env=self.env, capture_output=True, timeout=30)
        return result.stdout

    def close(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


@unittest.skipIf(MISSING is not None, f'{MISSING} (scripts/install-deps.sh installs it)')
class KoreanInputMethod(unittest.TestCase):
    def setUp(self):
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix='attnviz-gui-ime-'))
        # Tall enough for Sentence and Global tokens to show without scrolling (the mouse wheel
        # commits a pending syllable too, before the panel moves).
        self.app = Session(self.dir / 'session', size=(1280, 1150), extra_env={'LANG': LOCALE, 'LC_ALL': LOCALE, 'XMODIFIERS': '@im=ibus'})
        self.app.display = Display(self.app.size[0] + 40, self.app.size[1] + 40)
        self.ibus = Ibus(self.app.display, self.app.config)

    def tearDown(self):
        self.ibus.close()
        self.app.display.close()  # also when the window never started
        if os.environ.get('ATTNVIZ_KEEP_GUI_TESTS'):
            print(f'\nkept {self.dir}', file=sys.stderr)
        else:
            shutil.rmtree(self.dir, ignore_errors=True)

    def composing(self, expected):
        """Waits until the window draws `expected` at the caret as the syllable being composed."""
        try:
            wait_for(lambda: self.app.log().get('preedit') == expected, 20, f'"{expected}" being composed')
        except GuiError:
            raise GuiError(f'the window composes "{self.app.log().get("preedit")}", not "{expected}"; '
                           f'its stderr:\n{self.app.stderr()}') from None

    def sentence(self, expected):
        return self.app.autosave(lambda s: s['sentence'] == expected)['sentence']

    def sentence_rect(self):
        x, y, w, h = self.app.find('Sentence/##sentence')['visible']
        ox, oy = self.app.log().get('window_origin', [0, 0])
        return ox + x, oy + y, w, h

    def test_typing_composing_backspace_and_changing_fields(self):
        with self.app as app:
            app.click('Sentence/##sentence')
            app.key('ctrl+a')
            app.key('d', 'k', 's', 's', 'u', 'd')
            self.composing('녕')
            self.sentence('안')
            app.key('g', 'k', 't', 'p', 'd', 'y')
            self.composing('요')
            self.sentence('안녕하세')
            app.key('space')
            self.composing('')
            self.assertEqual(self.sentence('안녕하세요 '), '안녕하세요 ')
            self.assertEqual(app.count('/##chip'), 1, 'one token: 안녕하세요')

            # Backspace while composing edits the composition only: 하 → ㅎ → nothing, and the
            # space committed before it stays.
            app.key('g', 'k')
            self.composing('하')
            composing = app.screenshot(self.dir / 'composing.png')
            app.key('BackSpace')
            self.composing('ㅎ')
            app.key('BackSpace')
            self.composing('')
            app.wait_frames(6)
            self.assertEqual(self.sentence('안녕하세요 '), '안녕하세요 ', 'Backspace deleted committed text')
            # What was drawn at the caret went with the composition.
            plain = app.screenshot(self.dir / 'plain.png')
            self.assertTrue(composing.crop_differs(plain, self.sentence_rect()), '하 was drawn in the Sentence box')

            # A pending syllable stays in its field when the user clicks another one.
            globals_before = app.autosave()['mask'].get('global', [])
            app.key('d', 'k')
            self.composing('아')
            app.click('Mask/##globals')
            self.composing('')
            app.key('space')
            app.click('##views/Heatmaps')
            self.assertEqual(self.sentence('안녕하세요 아'), '안녕하세요 아')
            self.assertEqual(app.autosave()['mask'].get('global', []), globals_before, 'Global tokens unchanged')

            # Enter while composing: the input method commits the syllable, then Enter acts
            # (a new line in the Sentence box), once.
            app.click('Sentence/##sentence')
            app.key('ctrl+End')
            app.key('g', 'k')
            self.composing('하')
            app.key('Return')
            self.composing('')
            self.assertEqual(self.sentence('안녕하세요 아하\n'), '안녕하세요 아하\n')


@unittest.skipIf(attnviz_gui.have_tools() is not None, f'{attnviz_gui.have_tools()} is not installed')
class NamedInputMethodNotRunning(unittest.TestCase):
    """XMODIFIERS names ibus, but no ibus runs: a clear message, and Latin typing as always."""

    def test_typing_works_and_stderr_says_why_there_is_no_input_method(self):
        directory = pathlib.Path(tempfile.mkdtemp(prefix='attnviz-gui-noime-'))
        try:
            with Session(directory / 'session', extra_env={'XMODIFIERS': '@im=ibus'}) as app:
                app.click('Sentence/##sentence')
                app.key('ctrl+a')
                app.type('plain latin')
                self.assertEqual(app.autosave(lambda s: s['sentence'] == 'plain latin')['sentence'], 'plain latin')
                code = app.close()
                self.assertEqual(code, 0, app.stderr_text)
                self.assertIn('the input method XMODIFIERS names (ibus) did not answer', app.stderr_text)
        finally:
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == '__main__':
    unittest.main()
