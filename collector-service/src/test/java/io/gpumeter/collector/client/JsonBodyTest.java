package io.gpumeter.collector.client;

import io.vertx.mutiny.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        JsonBody body = new JsonBody(bytes);
        List<Buffer> pieces = pieces(body);
        assertEquals(List.of(JsonBody.PIECE, JsonBody.PIECE, JsonBody.PIECE, 17), pieces.stream().map(Buffer::length).toList());
        assertArrayEquals(bytes, joined(pieces));
        assertArrayEquals(bytes, joined(pieces(body)), "every attempt sends the body from its start");
    }

    @Test
    void aBodyOfExactlyOnePieceOrLessIsOnePiece() {
        assertEquals(1, pieces(new JsonBody(new byte[JsonBody.PIECE])).size());
        List<Buffer> small = pieces(new JsonBody("{}".getBytes()));
        assertEquals(1, small.size());
        assertTrue(small.get(0).toString().equals("{}"));
    }
}
