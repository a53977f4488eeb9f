package io.gpumeter.launcher.replay;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RequestCutterTest {

    static List<RequestCutter.Request> cut(byte[] stream, int maxLines, int maxBytes) throws IOException {
        RequestCutter cutter = new RequestCutter(new ByteArrayInputStream(stream), maxLines, maxBytes);
        List<RequestCutter.Request> requests = new ArrayList<>();
        for (Optional<RequestCutter.Request> r = cutter.next(); r.isPresent(); r = cutter.next()) {
            requests.add(r.get());
        }
        return requests;
    }

    static String shape(List<RequestCutter.Request> requests) {
        List<String> parts = new ArrayList<>();
        for (RequestCutter.Request r : requests) {
            parts.add(r.index() + "@" + r.firstLine() + "x" + r.lines() + "="
                    + new String(r.body(), StandardCharsets.UTF_8).replace("\n", "/").replace("\r", "^"));
        }
        return String.join(" ", parts);
    }

    /** Lines written with '/' for a line feed and '^' for a carriage return; requests as index@first line x lines=body. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "one request                 | a/b/c/           | 5  | 100 | 1@1x3=a/b/c/",
            "cut by lines                | a/b/c/d/e/       | 2  | 100 | 1@1x2=a/b/ 2@3x2=c/d/ 3@5x1=e/",
            "a last line without its end | a/b/c            | 2  | 100 | 1@1x2=a/b/ 2@3x1=c",
            "blank lines kept, counted   | a///b/           | 2  | 100 | 1@1x2=a// 2@3x2=/b/",
            "CRLF stays with its line    | a^/b^/c^/        | 2  | 100 | 1@1x2=a^/b^/ 2@3x1=c^/",
            "cut by bytes                | aaa/bbb/ccc/     | 10 | 8   | 1@1x2=aaa/bbb/ 2@3x1=ccc/",
            "a line longer than the cap  | a/bbbbbbbbbb/c/  | 10 | 4   | 1@1x1=a/ 2@2x1=bbbbbbbbbb/ 3@3x1=c/",
            "one line at a time          | a/b/             | 1  | 100 | 1@1x1=a/ 2@2x1=b/",
    })
    void cutsBetweenLines(String name, String stream, int maxLines, int maxBytes, String expected) throws IOException {
        byte[] bytes = stream.replace("/", "\n").replace("^", "\r").getBytes(StandardCharsets.UTF_8);
        List<RequestCutter.Request> requests = cut(bytes, maxLines, maxBytes);
        assertEquals(expected, shape(requests));
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        requests.forEach(r -> joined.writeBytes(r.body()));
        assertArrayEquals(bytes, joined.toByteArray(), "every byte kept, in order");
    }

    @Test
    void anEmptyStreamIsNoRequest() throws IOException {
        assertEquals(List.of(), cut(new byte[0], 10, 10));
    }

    @Test
    void aStreamReadInDribsIsCutAsOneReadWhole() throws IOException {
        StringBuilder stream = new StringBuilder();
        for (int i = 0; i < 5_000; i++) {
            stream.append("{\"type\":\"ADDED\",\"n\":").append(i).append("}\n");
        }
        byte[] bytes = stream.toString().getBytes(StandardCharsets.UTF_8);
        InputStream dribs = new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 7));
            }
        };
        RequestCutter cutter = new RequestCutter(dribs, 1_000, 30_000);
        List<RequestCutter.Request> requests = new ArrayList<>();
        for (Optional<RequestCutter.Request> r = cutter.next(); r.isPresent(); r = cutter.next()) {
            requests.add(r.get());
        }
        assertEquals(shape(cut(bytes, 1_000, 30_000)), shape(requests));
        assertEquals(5_000, requests.stream().mapToInt(RequestCutter.Request::lines).sum());
        assertEquals(requests.get(requests.size() - 1).firstLine() + requests.get(requests.size() - 1).lines() - 1, 5_000);
    }

    @Test
    void aRequestNeedsRoomForOneLine() {
        assertThrows(IllegalArgumentException.class, () -> new RequestCutter(new ByteArrayInputStream(new byte[0]), 0, 10));
        assertThrows(IllegalArgumentException.class, () -> new RequestCutter(new ByteArrayInputStream(new byte[0]), 10, 0));
    }
}
