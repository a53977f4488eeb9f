package io.gpumeter.launcher.cli;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TerminalTextTest {

    static Stream<Arguments> texts() {
        return Stream.of(
                Arguments.of("an escape sequence", "\u001b[2J\u001b[Hfake", "\\x1b[2J\\x1b[Hfake"),
                Arguments.of("a window title", "\u001b]0;pwned\u0007x", "\\x1b]0;pwned\\x07x"),
                Arguments.of("a forged line", "a\nFix: rm -rf /", "a\\x0aFix: rm -rf /"),
                Arguments.of("a carriage return and a tab", "ok\rbad\tx", "ok\\x0dbad\\x09x"),
                Arguments.of("a C1 CSI and DEL", "a\u009b2Jb\u007f", "a\\x9b2Jb\\x7f"),
                Arguments.of("a bidirectional override", "pod-\u202egnp.exe", "pod-\\u202egnp.exe"),
                Arguments.of("a zero-width space", "trai\u200bn-0", "trai\\u200bn-0"),
                Arguments.of("a line separator", "a\u2028b", "a\\u2028b"),
                Arguments.of("a lone surrogate", "a\ud800b", "a\\ud800b"),
                Arguments.of("words, arrows and emoji stay", "OOM → data-plane · ü 🚀", "OOM → data-plane · ü 🚀"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("texts")
    void everyCharacterThatCouldActOnATerminalIsShownNotSent(String name, String text, String shown) {
        assertEquals(shown, TerminalText.safe(text));
    }
}
