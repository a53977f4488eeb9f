package io.gpumeter.collector.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.mutiny.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class JsonBodyTest {

    private static List<Buffer> pieces(JsonBody body) {
        return body.pieces().collect().asList().await().atMost(Duration.ofSeconds(5));
    }

    private static byte[] joined(List<Buffer> pieces) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        pieces.forEach(p -> out.writeBytes(p.getBytes()));
        return out.toByteArray();
    }

    @Test
    void aLargeBodyIsSentInPiecesThatJoinToItsBytes() {
        byte[] bytes = new byte[JsonBody.PIECE * 3 + 17];
        new Random(7).nextBytes(bytes);
        JsonBody body = JsonBody.of(bytes);
        List<Buffer> pieces = pieces(body);
        assertEquals(List.of(JsonBody.PIECE, JsonBody.PIECE, JsonBody.PIECE, 17), pieces.stream().map(Buffer::length).toList());
        assertEquals(bytes.length, body.length());
        assertArrayEquals(bytes, joined(pieces));
        assertArrayEquals(bytes, joined(pieces(body)), "every attempt sends the body from its start");
    }

    @Test
    void aBodyOfExactlyOnePieceOrLessIsOnePiece() {
        assertEquals(List.of(JsonBody.PIECE), pieces(JsonBody.of(new byte[JsonBody.PIECE])).stream().map(Buffer::length).toList());
        List<Buffer> small = pieces(JsonBody.of("{}".getBytes()));
        assertEquals(List.of("{}"), small.stream().map(Buffer::toString).toList());
        assertEquals(List.of(0), pieces(JsonBody.of(new byte[0])).stream().map(Buffer::length).toList());
    }

    @Test
    void jsonIsWrittenAcrossPiecesAsTheMapperWritesItWhole() throws Exception {
        ObjectMapper json = new ObjectMapper();
        Map<String, Object> value = Map.of("lines", "é€x".repeat(JsonBody.PIECE / 2), "n", 7);
        byte[] whole = json.writeValueAsBytes(value);
        JsonBody body = JsonBody.of(json, value);
        assertEquals(whole.length, body.length());
        assertArrayEquals(whole, joined(pieces(body)));
    }
}
