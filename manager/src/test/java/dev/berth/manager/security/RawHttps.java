package dev.berth.manager.security;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * A TLS client that writes the request line exactly as given, as {@code curl --path-as-is} does:
 * java.net.http and most clients normalise dot segments and escapes before sending, which would
 * hide what a hostile client can send.
 */
final class RawHttps {
    private final SSLContext tls;
    private final int port;

    record Answer(int code, String head, String body) {
    }

    RawHttps(Path certificatePem, int port) throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        trust.setCertificateEntry("berth", CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(certificatePem))));
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        this.tls = SSLContext.getInstance("TLS");
        tls.init(null, factory.getTrustManagers(), null);
        this.port = port;
    }

    /** A connected TLS socket, handshake done, with a read timeout. */
    SSLSocket open() throws IOException {
        Socket plain = new Socket();
        plain.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket(plain, "127.0.0.1", port, true);
        socket.setSoTimeout(30_000);
        socket.startHandshake();
        return socket;
    }

    /** Sends "METHOD target HTTP/1.1" with the headers given and Connection: close, and reads the whole answer. */
    Answer send(String method, String target, String... headers) throws IOException {
        try (SSLSocket socket = open()) {
            StringBuilder request = new StringBuilder(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
            for (String header : headers) request.append(header).append("\r\n");
            request.append("\r\n");
            socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            return parse(readAll(socket.getInputStream()));
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) out.write(buffer, 0, n);
        } catch (javax.net.ssl.SSLException closedWithoutCloseNotify) {
            // the server may close the TCP connection without a TLS close_notify after the answer
        }
        return out.toByteArray();
    }

    private static Answer parse(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        int split = text.indexOf("\r\n\r\n");
        String head = split < 0 ? text : text.substring(0, split);
        String body = split < 0 ? "" : text.substring(split + 4);
        String[] statusLine = head.split("\r\n", 2)[0].split(" ");
        int code = statusLine.length > 1 && statusLine[1].matches("\\d{3}") ? Integer.parseInt(statusLine[1]) : -1;
        return new Answer(code, head, body);
    }
}
