package io.gpumeter.collector.kubernetes;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bytes are split into the lines {@link BufferedReader#readLine()} makes of the same text, however they arrive. */
class ByteLinesTest {

    private static List<String> expected(String text) throws IOException {
        List<String> lines = new ArrayList<>();
        BufferedReader reader = new BufferedReader(new StringReader(text));
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            lines.add(line);
        }
        return lines;
    }

    private static List<String> split(InputStream in) throws IOException {
        List<String> lines = new ArrayList<>();
        ByteLines byteLines = new ByteLines(in);
        while (byteLines.next()) {
            lines.add(new String(byteLines.buffer(), byteLines.start(), byteLines.length(), StandardCharsets.UTF_8));
        }
        return lines;
    }

    /** A stream that hands over one byte per read, so every line end falls across reads. */
    private static InputStream trickling(byte[] bytes) {
        return new FilterInputStream(new ByteArrayInputStream(bytes)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(len, 1));
            }
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a", "a\n", "a\nb", "a\r\nb\r\n", "a\rb\r", "a\r\rb", "a\n\rb", "\n", "\n\n", "\r\n\r\n",
            "\r", "a\n\n\nb", "  \n\t\n", "é\nü\r\n€", "a\r"})
    void linesAreThoseBufferedReaderReads(String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        assertEquals(expected(text), split(new ByteArrayInputStream(bytes)), "whole");
        assertEquals(expected(text), split(trickling(bytes)), "one byte per read");
    }

    @Test
    void aLineLongerThanTheBufferIsWhole() throws IOException {
        String longLine = "x".repeat(300_000);
        String text = "a\n" + longLine + "\r\n" + longLine + "y\nb";
        assertEquals(expected(text), split(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    void manyLinesAcrossBufferRefills() throws IOException {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            text.append("{\"line\":").append(i).append('}').append(i % 3 == 0 ? "\r\n" : i % 3 == 1 ? "\n" : "\r");
        }
        List<String> lines = split(new ByteArrayInputStream(text.toString().getBytes(StandardCharsets.UTF_8)));
        assertEquals(expected(text.toString()), lines);
        assertEquals(20_000, lines.size());
    }

    @Test
    void blankIsWhatStringIsBlankSays() {
        for (String line : List.of("", " ", "\t \u000B\f\u001C\u001D\u001E\u001F", "\u3000", " \u2003 ", "\u00A0", " x ",
                "{}", "\u0085")) {
            byte[] bytes = ("##" + line + "##").getBytes(StandardCharsets.UTF_8);
            int length = bytes.length - 4;
            assertEquals(line.isBlank(), WatchStreamReader.isBlank(bytes, 2, length), "[" + line + "]");
        }
        assertTrue(WatchStreamReader.isBlank(new byte[0], 0, 0));
        assertFalse(WatchStreamReader.isBlank(new byte[]{'a'}, 0, 1));
    }
}
