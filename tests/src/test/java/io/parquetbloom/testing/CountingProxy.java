package io.parquetbloom.testing;

import com.google.common.collect.ConcurrentHashMultiset;
import com.google.common.collect.ImmutableMultiset;
import com.google.common.collect.Multiset;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static com.google.common.util.concurrent.Uninterruptibles.sleepUninterruptibly;
import static java.util.concurrent.TimeUnit.MILLISECONDS;

/**
 * A TCP proxy in front of the S3 server that understands just enough HTTP/1.1 to count requests and response bytes
 * by method, and that delays every request by a fixed latency to model S3's time to first byte. Requests pass
 * through byte for byte, so SigV4 signatures (which cover the Host header) stay valid. Paths containing
 * {@code ignoredPathPart} (the Hive file metastore's objects) are neither delayed nor counted.
 * <p>
 * With {@link #injectFaults}, a seeded fraction of object GETs fails the way S3 and networks fail: {@code 503 SlowDown},
 * {@code 500 InternalError}, a body cut halfway with the connection closed, a stall longer than any sane socket
 * timeout, and the answers S3 gives for an object deleted ({@code 404 NoSuchKey}) or rewritten ({@code 412}, the
 * listed ETag no longer matches) after the query planned it.
 */
public final class CountingProxy
        implements AutoCloseable
{
    public enum Fault
    {
        SLOW_DOWN, INTERNAL_ERROR, CUT_BODY, STALL, DELETED, REWRITTEN
    }

    /**
     * @param fractions fraction of object GETs that fail with each fault
     */
    public record FaultMix(String name, Map<Fault, Double> fractions, long seed, long stallMillis)
    {
        public static FaultMix none()
        {
            return new FaultMix("none", Map.of(), 0, 0);
        }
    }

    private final ServerSocket server;
    private final int upstreamPort;
    private final long latencyMillis;
    private final String ignoredPathPart;
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "counting-proxy");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<String, AtomicLong> requests = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> bytes = new ConcurrentHashMap<>();
    private final Map<Fault, AtomicLong> injected = new ConcurrentHashMap<>();
    private final Multiset<Request> log = ConcurrentHashMultiset.create();
    private volatile FaultMix faults = FaultMix.none();
    private volatile Random faultRandom = new Random(0);
    private volatile boolean closed;
    private volatile Set<String> deniedMethods = Set.of();
    private final AtomicReference<Hook> hook = new AtomicReference<>();
    private final AtomicReference<Predicate<Request>> lostResponse = new AtomicReference<>();
    private final AtomicLong strippedEtags = new AtomicLong();
    private volatile boolean stripListEtags;
    private final AtomicInteger openConnections = new AtomicInteger();
    private final AtomicInteger peakConnections = new AtomicInteger();

    private record Hook(Predicate<Request> matches, Runnable action) {}

    public CountingProxy(int upstreamPort, long latencyMillis, String ignoredPathPart)
            throws IOException
    {
        this.server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        this.upstreamPort = upstreamPort;
        this.latencyMillis = latencyMillis;
        this.ignoredPathPart = ignoredPathPart;
        threads.execute(this::acceptLoop);
    }

    /**
     * A proxy in front of the S3 server at {@code endpoint} ({@code http://host:port}) that counts and delays every
     * request.
     */
    public static CountingProxy inFrontOf(String endpoint, long latencyMillis)
            throws IOException
    {
        // no S3 path contains a NUL: nothing is ignored
        return new CountingProxy(URI.create(endpoint).getPort(), latencyMillis, "\0");
    }

    public String endpoint()
    {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /**
     * @param gets object GETs (ranged or whole)
     * @param getBytes response bytes of object GETs
     * @param lists ListObjects requests
     * @param heads HEAD requests
     */
    public record Counts(long gets, long getBytes, long lists, long heads) {}

    /**
     * One request as S3 saw it.
     *
     * @param method GET, LIST or HEAD
     * @param target the object key for GET and HEAD, the {@code prefix} for LIST (without the bucket)
     * @param range the {@code Range} header of a GET, or empty
     */
    /**
     * @param target the object's key, or a listing's prefix
     * @param bucket the bucket (path-style requests name it first)
     */
    public record Request(String method, String target, String range, String bucket) {}

    /**
     * Every request since the last {@link #reset()}, as a multiset.
     */
    /**
     * Waits until no request came for two seconds (what sent them stopped); false when requests still came after
     * {@code timeoutMillis}.
     */
    public boolean awaitQuiet(long timeoutMillis)
    {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        long seen = -1;
        while (log.size() != seen) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            seen = log.size();
            sleepUninterruptibly(2_000, MILLISECONDS);
        }
        return true;
    }

    public ImmutableMultiset<Request> requests()
    {
        return ImmutableMultiset.copyOf(log);
    }

    public Counts counts()
    {
        return new Counts(get(requests, "GET"), get(bytes, "GET"), get(requests, "LIST"), get(requests, "HEAD"));
    }

    private static Request describe(String method, String requestTarget, String head)
    {
        String path = requestTarget.contains("?") ? requestTarget.substring(0, requestTarget.indexOf('?')) : requestTarget;
        String query = requestTarget.contains("?") ? requestTarget.substring(requestTarget.indexOf('?') + 1) : "";
        // path-style: /bucket/key
        String key = path.replaceFirst("^/[^/]*/?", "");
        String bucket = path.replaceFirst("^/([^/]*).*$", "$1");
        if (method.equals("LIST")) {
            String prefix = "";
            for (String parameter : query.split("&")) {
                if (parameter.startsWith("prefix=")) {
                    prefix = URLDecoder.decode(parameter.substring("prefix=".length()), StandardCharsets.UTF_8);
                }
            }
            return new Request(method, prefix, "", bucket);
        }
        String range = "";
        for (String line : head.split("\r\n")) {
            if (line.regionMatches(true, 0, "Range:", 0, 6)) {
                range = line.substring(6).trim();
            }
        }
        return new Request(method, URLDecoder.decode(key, StandardCharsets.UTF_8), range, bucket);
    }

    private static boolean isListing(String target)
    {
        if (target.contains("list-type=")) {
            return true;
        }
        String path = target.contains("?") ? target.substring(0, target.indexOf('?')) : target;
        // path-style requests: /bucket or /bucket/ address the bucket, /bucket/key an object
        String trimmed = path.startsWith("/") ? path.substring(1) : path;
        int slash = trimmed.indexOf('/');
        return slash < 0 || slash == trimmed.length() - 1;
    }

    public void reset()
    {
        requests.clear();
        bytes.clear();
        log.clear();
    }

    /**
     * Faults from now on; {@link FaultMix#none()} ends them.
     */
    /**
     * Runs {@code action} once, before the first request {@code matches} accepts is forwarded (e.g. another client's
     * write landing between a reader's GET and its conditional PUT).
     */
    public void onceBefore(Predicate<Request> matches, Runnable action)
    {
        hook.set(new Hook(matches, action));
    }

    /**
     * The first request {@code matches} accepts is forwarded, and S3 acts on it, but its answer is lost: the client
     * sees its connection closed, as when a network drops a response (an SDK then retries a request that landed).
     */
    public void loseResponseOnce(Predicate<Request> matches)
    {
        lostResponse.set(matches);
    }

    private boolean takeLostResponse(Request request)
    {
        Predicate<Request> matches = lostResponse.get();
        return matches != null && matches.test(request) && lostResponse.compareAndSet(matches, null);
    }

    private void runHook(Request request)
    {
        Hook current = hook.get();
        if (current != null && current.matches().test(request) && hook.compareAndSet(current, null)) {
            current.action().run();
        }
    }

    /**
     * Answers every request of these methods (e.g. PUT, DELETE) with 403 AccessDenied, as S3 answers a principal
     * without that permission.
     */
    public void denyMethods(Set<String> methods)
    {
        deniedMethods = Set.copyOf(methods);
    }

    public void injectFaults(FaultMix mix)
    {
        faultRandom = new Random(mix.seed());
        faults = mix;
    }

    public Map<Fault, Long> injectedFaults()
    {
        Map<Fault, Long> counts = new EnumMap<>(Fault.class);
        injected.forEach((fault, count) -> counts.put(fault, count.get()));
        return counts;
    }

    private Fault drawFault()
    {
        FaultMix mix = faults;
        if (mix.fractions().isEmpty()) {
            return null;
        }
        double draw;
        Random random = faultRandom;
        synchronized (random) {
            draw = random.nextDouble();
        }
        for (Fault fault : Fault.values()) {
            draw -= mix.fractions().getOrDefault(fault, 0.0);
            if (draw < 0) {
                injected.computeIfAbsent(fault, _ -> new AtomicLong()).incrementAndGet();
                return fault;
            }
        }
        return null;
    }

    private static long get(Map<String, AtomicLong> counters, String method)
    {
        AtomicLong counter = counters.get(method);
        return counter == null ? 0 : counter.get();
    }

    private void acceptLoop()
    {
        while (!closed) {
            try {
                Socket client = server.accept();
                client.setTcpNoDelay(true);
                threads.execute(() -> serve(client));
            }
            catch (IOException e) {
                if (!closed) {
                    System.err.println("[proxy] accept failed: " + e);
                }
            }
        }
    }

    /**
     * Client connections open now (idle ones in the client's pool too).
     */
    public int openConnections()
    {
        return openConnections.get();
    }

    /**
     * The most client connections open at once since the last call.
     */
    public int takePeakConnections()
    {
        return peakConnections.getAndSet(openConnections.get());
    }

    private void serve(Socket client)
    {
        peakConnections.accumulateAndGet(openConnections.incrementAndGet(), Math::max);
        try {
            serveConnection(client);
        }
        finally {
            openConnections.decrementAndGet();
        }
    }

    private void serveConnection(Socket client)
    {
        try (client; Upstream upstream = new Upstream(client)) {
            InputStream in = client.getInputStream();
            while (true) {
                byte[] head = readHead(in);
                if (head == null) {
                    return;
                }
                // until it is forwarded, this request is answered on connections of its own
                upstream.forwarding = false;
                String text = new String(head, StandardCharsets.ISO_8859_1);
                String requestLine = text.substring(0, Math.max(0, text.indexOf("\r\n")));
                String[] parts = requestLine.split(" ");
                String method = parts.length > 0 ? parts[0].toUpperCase(Locale.ROOT) : "OTHER";
                // a GET without an object key (or with list-type) is a listing, counted apart from object reads
                if (method.equals("GET") && parts.length > 1 && isListing(parts[1])) {
                    method = "LIST";
                }
                boolean counted = parts.length < 2 || !parts[1].contains(ignoredPathPart);
                long contentLength = contentLength(text);
                if (counted) {
                    requests.computeIfAbsent(method, _ -> new AtomicLong()).incrementAndGet();
                    if (parts.length > 1) {
                        Request request = describe(method, parts[1], text);
                        log.add(request);
                        runHook(request);
                        if (takeLostResponse(request)) {
                            // the request lands upstream on a connection of its own; its answer never reaches the client
                            fetch(wholeRequest(head, in, client, contentLength));
                            return;
                        }
                    }
                    if (latencyMillis > 0) {
                        Thread.sleep(latencyMillis);
                    }
                }
                if (deniedMethods.contains(method)) {
                    // as S3 answers a principal without the permission; the body (if sent at all) is never read
                    client.getOutputStream().write(errorResponse(403, "Forbidden", "AccessDenied", "Access Denied"));
                    client.getOutputStream().flush();
                    return;
                }
                if (stripListEtags && method.equals("LIST")) {
                    // the SDK sends the next request only after it read this response: nothing else writes to the client now
                    client.getOutputStream().write(withoutEtags(fetch(head)));
                    client.getOutputStream().flush();
                    continue;
                }
                Fault fault = counted && method.equals("GET") ? drawFault() : null;
                if (fault != null) {
                    // the SDK sends the next request only after it read this response: nothing else writes to the client now
                    if (!injectFault(fault, head, client)) {
                        return;
                    }
                    continue;
                }
                upstream.forward(head, in, contentLength, method, counted);
            }
        }
        catch (IOException | InterruptedException e) {
            // a client or the server closed the connection
        }
    }

    /**
     * The S3 server's side of one client connection, opened when a request is first forwarded. The server may close
     * it while idle (as S3Proxy does after its idle timeout); the client is closed with it only when the last request
     * went through it, as a server closing a keep-alive connection would. A connection whose recent requests were
     * answered apart (stripped listings, faults) opens a new one instead of cutting an answer being written.
     */
    private final class Upstream
            implements AutoCloseable
    {
        private final Socket client;
        // the method of the request whose response is flowing back; SDK clients do not pipeline
        private final String[] currentMethod = {"OTHER"};
        private final boolean[] currentCounted = {true};
        private Socket socket;
        private volatile boolean forwarding;

        Upstream(Socket client)
        {
            this.client = client;
        }

        void forward(byte[] head, InputStream in, long contentLength, String method, boolean counted)
                throws IOException
        {
            synchronized (currentMethod) {
                currentMethod[0] = method;
                currentCounted[0] = counted;
            }
            forwarding = true;
            if (socket == null || socket.isClosed()) {
                Socket opened = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);
                opened.setTcpNoDelay(true);
                socket = opened;
                threads.execute(() -> copyResponses(opened));
            }
            OutputStream out = socket.getOutputStream();
            out.write(head);
            copyExactly(in, out, contentLength);
            out.flush();
        }

        private void copyResponses(Socket upstream)
        {
            byte[] buffer = new byte[64 * 1024];
            try (upstream) {
                InputStream in = upstream.getInputStream();
                OutputStream out = client.getOutputStream();
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    String method;
                    boolean counted;
                    synchronized (currentMethod) {
                        method = currentMethod[0];
                        counted = currentCounted[0];
                    }
                    if (counted) {
                        bytes.computeIfAbsent(method, _ -> new AtomicLong()).addAndGet(read);
                    }
                    out.write(buffer, 0, read);
                    out.flush();
                }
            }
            catch (IOException e) {
                // connection closed
            }
            if (forwarding) {
                try {
                    client.close();
                }
                catch (IOException ignored) {
                    // closing anyway
                }
            }
        }

        @Override
        public void close()
                throws IOException
        {
            if (socket != null) {
                socket.close();
            }
        }
    }

    /**
     * Answers one object GET with {@code fault} instead of S3.
     *
     * @return whether the client connection stays usable
     */
    private boolean injectFault(Fault fault, byte[] head, Socket client)
            throws IOException, InterruptedException
    {
        OutputStream out = client.getOutputStream();
        switch (fault) {
            case SLOW_DOWN -> out.write(errorResponse(503, "Slow Down", "SlowDown", "Please reduce your request rate."));
            case INTERNAL_ERROR -> out.write(errorResponse(500, "Internal Server Error", "InternalError", "We encountered an internal error. Please try again."));
            case DELETED -> out.write(errorResponse(404, "Not Found", "NoSuchKey", "The specified key does not exist."));
            case REWRITTEN -> out.write(errorResponse(412, "Precondition Failed", "PreconditionFailed", "At least one of the pre-conditions you specified did not hold"));
            case CUT_BODY, STALL -> {
                // the real answer, fetched on a connection of its own, of which the client gets half
                byte[] response = fetch(head);
                int bodyStart = indexOfBlankLine(response) + 4;
                out.write(response, 0, bodyStart + (response.length - bodyStart) / 2);
                out.flush();
                if (fault == Fault.STALL) {
                    Thread.sleep(faults.stallMillis());
                }
                client.close();
                return false;
            }
        }
        out.flush();
        return true;
    }

    /**
     * The request with its body, read from the client: a client that waits for {@code 100 Continue} is told to go
     * on, and the header is left out of what goes upstream.
     */
    private static byte[] wholeRequest(byte[] head, InputStream in, Socket client, long contentLength)
            throws IOException
    {
        String text = new String(head, StandardCharsets.ISO_8859_1);
        String withoutExpect = text.replaceAll("(?im)^expect: *100-continue\\r\\n", "");
        if (!withoutExpect.equals(text)) {
            client.getOutputStream().write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            client.getOutputStream().flush();
        }
        ByteArrayOutputStream whole = new ByteArrayOutputStream();
        whole.write(withoutExpect.getBytes(StandardCharsets.ISO_8859_1));
        copyExactly(in, whole, contentLength);
        return whole.toByteArray();
    }

    /**
     * From now on, listings reach the client without their objects' ETags, as some S3-compatible stores list them.
     */
    public void stripListingEtags()
    {
        stripListEtags = true;
    }

    public long strippedEtags()
    {
        return strippedEtags.get();
    }

    private byte[] withoutEtags(byte[] response)
    {
        int bodyStart = indexOfBlankLine(response) + 4;
        String head = new String(response, 0, bodyStart, StandardCharsets.ISO_8859_1);
        String body = new String(response, bodyStart, response.length - bodyStart, StandardCharsets.UTF_8);
        Matcher etags = Pattern.compile("<ETag>[^<]*</ETag>").matcher(body);
        long count = etags.results().count();
        strippedEtags.addAndGet(count);
        byte[] stripped = etags.replaceAll("").getBytes(StandardCharsets.UTF_8);
        String newHead = head.replaceAll("(?i)content-length: *[0-9]+", "Content-Length: " + stripped.length);
        byte[] headBytes = newHead.getBytes(StandardCharsets.ISO_8859_1);
        byte[] result = new byte[headBytes.length + stripped.length];
        System.arraycopy(headBytes, 0, result, 0, headBytes.length);
        System.arraycopy(stripped, 0, result, headBytes.length, stripped.length);
        return result;
    }

    /**
     * The whole response to {@code head}, its body de-chunked when it came chunked, with a Content-Length.
     */
    private byte[] fetch(byte[] head)
            throws IOException
    {
        try (Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort)) {
            upstream.getOutputStream().write(head);
            upstream.getOutputStream().flush();
            InputStream in = upstream.getInputStream();
            byte[] responseHead = readHead(in);
            if (responseHead == null) {
                throw new IOException("upstream closed the connection");
            }
            String text = new String(responseHead, StandardCharsets.ISO_8859_1);
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            if (text.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked")) {
                readChunks(in, body);
                text = text.replaceAll("(?i)transfer-encoding: *chunked\r\n", "Content-Length: %d\r\n".formatted(body.size()));
            }
            else {
                copyExactly(in, body, contentLength(text));
            }
            ByteArrayOutputStream response = new ByteArrayOutputStream();
            response.write(text.getBytes(StandardCharsets.ISO_8859_1));
            body.writeTo(response);
            return response.toByteArray();
        }
    }

    private static void readChunks(InputStream in, ByteArrayOutputStream body)
            throws IOException
    {
        while (true) {
            String sizeLine = readLine(in);
            int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
            if (size == 0) {
                // trailers, up to the blank line
                while (!readLine(in).isEmpty()) {
                    // none expected
                }
                return;
            }
            copyExactly(in, body, size);
            readLine(in);
        }
    }

    private static String readLine(InputStream in)
            throws IOException
    {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    private static int indexOfBlankLine(byte[] response)
    {
        for (int i = 0; i + 3 < response.length; i++) {
            if (response[i] == '\r' && response[i + 1] == '\n' && response[i + 2] == '\r' && response[i + 3] == '\n') {
                return i;
            }
        }
        return response.length - 4;
    }

    private static byte[] errorResponse(int status, String reason, String code, String message)
    {
        String body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>%s</Code><Message>%s</Message><RequestId>fault</RequestId></Error>".formatted(code, message);
        byte[] bodyBytes = body.getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 %d %s\r\nContent-Type: application/xml\r\nContent-Length: %d\r\nx-amz-request-id: fault\r\n\r\n".formatted(status, reason, bodyBytes.length);
        byte[] headBytes = head.getBytes(StandardCharsets.ISO_8859_1);
        byte[] response = new byte[headBytes.length + bodyBytes.length];
        System.arraycopy(headBytes, 0, response, 0, headBytes.length);
        System.arraycopy(bodyBytes, 0, response, headBytes.length, bodyBytes.length);
        return response;
    }

    /**
     * The request line and headers up to the blank line, or null at end of stream.
     */
    private static byte[] readHead(InputStream in)
            throws IOException
    {
        ByteArrayOutputStream head = new ByteArrayOutputStream(512);
        int matched = 0;
        while (true) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
            matched = switch (matched) {
                case 0, 2 -> b == '\r' ? matched + 1 : 0;
                case 1, 3 -> b == '\n' ? matched + 1 : (b == '\r' ? 1 : 0);
                default -> 0;
            };
            if (matched == 4) {
                return head.toByteArray();
            }
        }
    }

    private static long contentLength(String head)
    {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
                return Long.parseLong(line.substring(colon + 1).trim());
            }
        }
        return 0;
    }

    /**
     * Copies exactly a request body's bytes (the stream carries further requests after it).
     */
    private static void copyExactly(InputStream in, OutputStream out, long length)
            throws IOException
    {
        byte[] buffer = new byte[16 * 1024];
        long remaining = length;
        while (remaining > 0) {
            int read = in.read(buffer, 0, (int) Math.min(buffer.length, remaining));
            if (read < 0) {
                throw new IOException("request body ended early");
            }
            out.write(buffer, 0, read);
            remaining -= read;
        }
    }

    @Override
    public void close()
            throws IOException
    {
        closed = true;
        server.close();
        threads.shutdownNow();
    }
}
