package io.parquetbloom.s3;

import com.google.common.base.Throwables;
import com.google.common.collect.ImmutableList;
import com.google.common.io.ByteStreams;
import com.google.inject.Inject;
import io.trino.spi.TrinoException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

import static com.google.common.base.MoreObjects.firstNonNull;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BUCKET_NOT_FOUND;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_OBJECT_CHANGED;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_OBJECT_NOT_FOUND;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_S3_ACCESS_DENIED;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_S3_ERROR;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * All S3 I/O of the connector: listing, ranged GETs. Every request is counted in the caller's
 * {@link S3RequestStats}; every failure becomes a {@link TrinoException} that names the object and never the
 * credentials.
 */
public class S3ObjectStore
{
    private final S3Client client;
    private final Optional<SseCustomerKey> customerKey;
    private final int listPageSize;
    private final S3Stats nodeStats;
    private final Optional<ReadHedger> hedger;

    @Inject
    public S3ObjectStore(S3Client client, S3Config config, S3Stats nodeStats)
    {
        this(client, config.getSseCustomerKey().map(SseCustomerKey::of), config.getListPageSize(), nodeStats,
                config.isHedgedReadsEnabled() ? Optional.of(new ReadHedger(config.getHedgedReadsMaxFraction(), nodeStats)) : Optional.empty());
    }

    public S3ObjectStore(S3Client client)
    {
        this(client, Optional.empty(), new S3Config().getListPageSize(), new S3Stats(), Optional.empty());
    }

    private S3ObjectStore(S3Client client, Optional<SseCustomerKey> customerKey, int listPageSize, S3Stats nodeStats, Optional<ReadHedger> hedger)
    {
        this.client = requireNonNull(client, "client is null");
        this.customerKey = requireNonNull(customerKey, "customerKey is null");
        this.listPageSize = listPageSize;
        this.nodeStats = requireNonNull(nodeStats, "nodeStats is null");
        this.hedger = requireNonNull(hedger, "hedger is null");
    }

    /**
     * Names of the "folders" directly below {@code prefix}, without the trailing slash.
     */
    public List<String> listChildPrefixes(S3Location prefix, S3RequestStats stats)
    {
        S3Location folder = prefix.asPrefix();
        ImmutableList.Builder<String> names = ImmutableList.builder();
        String continuationToken = null;
        do {
            ListObjectsV2Response response = listPage(folder, true, null, continuationToken, stats);
            for (CommonPrefix common : response.commonPrefixes()) {
                String name = common.prefix().substring(folder.key().length());
                if (name.endsWith("/")) {
                    name = name.substring(0, name.length() - 1);
                }
                if (!name.isEmpty()) {
                    names.add(name);
                }
            }
            continuationToken = nextToken(folder, response).orElse(null);
        }
        while (continuationToken != null);
        return names.build();
    }

    /**
     * The first page of a recursive listing of {@code prefix}, and the token of the next page when more objects follow.
     */
    public record ListingPage(List<ListedObject> objects, Optional<String> continuationToken)
    {
        public ListingPage
        {
            objects = List.copyOf(objects);
            requireNonNull(continuationToken, "continuationToken is null");
        }

        public boolean truncated()
        {
            return continuationToken.isPresent();
        }

        /**
         * Whether the page's keys strictly increase in S3's order, which listing key ranges relies on.
         */
        public boolean inKeyOrder()
        {
            return firstOutOfOrder(objects, Optional.empty()) < 0;
        }
    }

    public ListingPage listFirstPage(S3Location prefix, S3RequestStats stats)
    {
        S3Location folder = prefix.asPrefix();
        ListObjectsV2Response response = listPage(folder, false, null, null, stats);
        return new ListingPage(objectsOf(folder, response), nextToken(folder, response));
    }

    /**
     * The pages of a recursive listing that follow {@code continuationToken}, all of them, in whatever order the store
     * answers: continuation tokens, unlike {@code start-after}, need no key order.
     */
    public List<ListedObject> listRemaining(S3Location prefix, String continuationToken, S3RequestStats stats)
    {
        S3Location folder = prefix.asPrefix();
        ImmutableList.Builder<ListedObject> objects = ImmutableList.builder();
        Optional<String> token = Optional.of(continuationToken);
        while (token.isPresent()) {
            ListObjectsV2Response response = listPage(folder, false, null, token.get(), stats);
            objects.addAll(objectsOf(folder, response));
            token = nextToken(folder, response);
        }
        return objects.build();
    }

    /**
     * Every object below {@code prefix} with the time it was last written, all pages: for housekeeping of a few
     * objects (an index folder), not for tables.
     */
    public List<ListedObject> listWithAges(S3Location prefix, S3RequestStats stats)
    {
        S3Location folder = prefix.asPrefix();
        ImmutableList.Builder<ListedObject> objects = ImmutableList.builder();
        String token = null;
        do {
            ListObjectsV2Response response = listPage(folder, false, null, token, stats);
            objects.addAll(objectsOf(folder, response));
            token = nextToken(folder, response).orElse(null);
        }
        while (token != null);
        return objects.build();
    }

    /**
     * An object as a listing gives it: its version and when it was written ({@link Instant#EPOCH} when the store
     * does not say).
     */
    public record ListedObject(S3ObjectInfo object, Instant lastModified)
    {
        public ListedObject
        {
            requireNonNull(object, "object is null");
            requireNonNull(lastModified, "lastModified is null");
        }

        public String key()
        {
            return object.location().key();
        }
    }

    /**
     * The objects below {@code prefix}, recursively, whose keys come after {@code startAfter} and not after
     * {@code lastKey}, in S3's key order (UTF-8 bytes). Disjoint key ranges can be listed side by side. The listing
     * stops at the first key past {@code lastKey}, which is right only if keys arrive strictly increasing: a key that
     * does not is an {@link UnorderedListingException}, never a silently short or repeated range.
     */
    public List<ListedObject> listObjectsBetween(S3Location prefix, Optional<String> startAfter, Optional<String> lastKey, S3RequestStats stats)
    {
        S3Location folder = prefix.asPrefix();
        ImmutableList.Builder<ListedObject> objects = ImmutableList.builder();
        Optional<String> previous = startAfter;
        String continuationToken = null;
        do {
            ListObjectsV2Response response = listPage(folder, false, continuationToken == null ? startAfter.orElse(null) : null, continuationToken, stats);
            List<ListedObject> page = objectsOf(folder, response);
            int outOfOrder = firstOutOfOrder(page, previous);
            if (outOfOrder >= 0) {
                throw new UnorderedListingException(folder, outOfOrder == 0 ? previous.orElseThrow() : page.get(outOfOrder - 1).key(), page.get(outOfOrder).key());
            }
            for (ListedObject object : page) {
                if (lastKey.isPresent() && compareKeys(object.key(), lastKey.get()) > 0) {
                    return objects.build();
                }
                objects.add(object);
            }
            if (!page.isEmpty()) {
                previous = Optional.of(page.getLast().key());
            }
            continuationToken = nextToken(folder, response).orElse(null);
        }
        while (continuationToken != null);
        return objects.build();
    }

    /**
     * Index of the first object whose key does not come strictly after the one before it (or after {@code after}),
     * or -1 when all do.
     */
    public static int firstOutOfOrder(List<ListedObject> objects, Optional<String> after)
    {
        String previous = after.orElse(null);
        for (int i = 0; i < objects.size(); i++) {
            String key = objects.get(i).key();
            if (previous != null && compareKeys(previous, key) >= 0) {
                return i;
            }
            previous = key;
        }
        return -1;
    }

    /**
     * Orders keys as S3 lists them: by their UTF-8 bytes, unsigned.
     */
    public static int compareKeys(String left, String right)
    {
        return Arrays.compareUnsigned(left.getBytes(UTF_8), right.getBytes(UTF_8));
    }

    private static Optional<String> nextToken(S3Location folder, ListObjectsV2Response response)
    {
        if (!Boolean.TRUE.equals(response.isTruncated())) {
            return Optional.empty();
        }
        if (response.nextContinuationToken() == null) {
            // ending here would silently leave out the rest of the listing
            throw new TrinoException(PARQUET_BLOOM_S3_ERROR, "Listing %s in bucket %s: a page says more keys follow but gives no continuation token".formatted(folder, folder.bucket()));
        }
        return Optional.of(response.nextContinuationToken());
    }

    private static List<ListedObject> objectsOf(S3Location folder, ListObjectsV2Response response)
    {
        return response.contents().stream()
                .map(object -> new ListedObject(
                        new S3ObjectInfo(new S3Location(folder.bucket(), object.key()), object.size(), stripQuotes(object.eTag())),
                        object.lastModified() == null ? Instant.EPOCH : object.lastModified()))
                .collect(ImmutableList.toImmutableList());
    }

    private ListObjectsV2Response listPage(S3Location folder, boolean delimited, String startAfter, String continuationToken, S3RequestStats stats)
    {
        ListObjectsV2Request.Builder request = ListObjectsV2Request.builder()
                .bucket(folder.bucket())
                .prefix(folder.key())
                .maxKeys(listPageSize)
                .startAfter(startAfter)
                .continuationToken(continuationToken)
                .overrideConfiguration(override -> override.addMetricPublisher(new AttemptRecorder(stats, nodeStats)));
        if (delimited) {
            request.delimiter("/");
        }
        try {
            stats.recordList();
            nodeStats.recordList();
            return sendList(request.build());
        }
        catch (SdkException e) {
            nodeStats.recordFailure();
            throw translate("list", folder, e);
        }
    }

    /**
     * One LIST request as the client sends it; tests answer it from memory.
     */
    protected ListObjectsV2Response sendList(ListObjectsV2Request request)
    {
        return client.listObjectsV2(request);
    }

    /**
     * Reads {@code length} bytes at {@code position} of the listed version of an object with one ranged GET. The GET
     * carries {@code If-Match} with the listed ETag, so bytes of a rewritten object are never mixed with metadata
     * planned from the old one: S3 answers 412 and the query fails with {@code PARQUET_BLOOM_OBJECT_CHANGED}.
     */
    public byte[] read(S3ObjectInfo object, long position, int length, S3RequestStats stats)
    {
        if (length == 0) {
            return new byte[0];
        }
        GetObjectRequest request = getRequest(object, position, length, stats);
        if (hedger.isEmpty()) {
            return get(object, request, position, length, stats, () -> false);
        }
        return hedger.get().read(decided -> get(object, request, position, length, stats, decided), length, stats, object.location());
    }

    private GetObjectRequest getRequest(S3ObjectInfo object, long position, int length, S3RequestStats stats)
    {
        S3Location location = object.location();
        GetObjectRequest.Builder request = GetObjectRequest.builder()
                .bucket(location.bucket())
                .key(location.key())
                .range("bytes=%d-%d".formatted(position, position + length - 1))
                .overrideConfiguration(override -> override.addMetricPublisher(new AttemptRecorder(stats, nodeStats)));
        if (object.hasEtag()) {
            request.ifMatch(quoted(object.etag()));
        }
        customerKey.ifPresent(key -> request
                .sseCustomerAlgorithm(key.algorithm())
                .sseCustomerKey(key.keyBase64())
                .sseCustomerKeyMD5(key.keyMd5Base64()));
        return request.build();
    }

    /**
     * @param abandoned whether nobody waits for this GET any more (the other GET of a hedged pair answered first): its
     * interruption is then no failure
     */
    private byte[] get(S3ObjectInfo object, GetObjectRequest request, long position, int length, S3RequestStats stats, BooleanSupplier abandoned)
    {
        S3Location location = object.location();
        long start = System.nanoTime();
        byte[] bytes;
        try {
            ResponseBytes<GetObjectResponse> response = client.getObjectAsBytes(request);
            bytes = response.asByteArrayUnsafe();
        }
        catch (SdkException e) {
            stats.recordGet(0);
            nodeStats.recordGet(0);
            if (!(e instanceof AbortedException) && !Thread.currentThread().isInterrupted() && !abandoned.getAsBoolean()) {
                // a GET interrupted because nobody wants its bytes any more (a prefetch after LIMIT) did not fail
                nodeStats.recordFailure();
            }
            if (e instanceof AwsServiceException service && service.statusCode() == 412) {
                throw new TrinoException(PARQUET_BLOOM_OBJECT_CHANGED, "Object %s changed while the query ran: it no longer has the ETag %s it was listed with; run the query again (with metadata.listing-cache-ttl set, once the cached listing has expired)".formatted(location, object.etag()), e);
            }
            if (e instanceof NoSuchKeyException || (e instanceof AwsServiceException service && service.statusCode() == 404 && !"NoSuchBucket".equals(errorCode(service)))) {
                throw new TrinoException(PARQUET_BLOOM_OBJECT_CHANGED, "Object %s was deleted while the query ran (it was listed with ETag %s); run the query again (with metadata.listing-cache-ttl set, once the cached listing has expired)".formatted(location, object.etag()), e);
            }
            throw translate("read", location, e);
        }
        stats.recordGet(bytes.length);
        nodeStats.recordGet(bytes.length);
        if (bytes.length != length) {
            throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Short read of %s: asked for %d bytes at %d, got %d (the object is shorter than its metadata says)".formatted(location, length, position, bytes.length));
        }
        hedger.ifPresent(hedger -> hedger.recordLatency(length, System.nanoTime() - start));
        return bytes;
    }

    /**
     * A whole small object and its ETag, read unconditionally (the object a conditional PUT may replace).
     *
     * @return empty when there is no such object
     */
    public Optional<StoredObject> readWhole(S3Location location, S3RequestStats stats)
    {
        GetObjectRequest.Builder request = GetObjectRequest.builder()
                .bucket(location.bucket())
                .key(location.key())
                .overrideConfiguration(override -> override.addMetricPublisher(new AttemptRecorder(stats, nodeStats)));
        customerKey.ifPresent(key -> request
                .sseCustomerAlgorithm(key.algorithm())
                .sseCustomerKey(key.keyBase64())
                .sseCustomerKeyMD5(key.keyMd5Base64()));
        try {
            ResponseBytes<GetObjectResponse> response = client.getObjectAsBytes(request.build());
            byte[] bytes = response.asByteArrayUnsafe();
            stats.recordGet(bytes.length);
            nodeStats.recordGet(bytes.length);
            return Optional.of(new StoredObject(bytes, stripQuotes(response.response().eTag())));
        }
        catch (SdkException e) {
            stats.recordGet(0);
            nodeStats.recordGet(0);
            if (e instanceof NoSuchKeyException || (e instanceof AwsServiceException service && service.statusCode() == 404 && !"NoSuchBucket".equals(errorCode(service)))) {
                return Optional.empty();
            }
            throw translate("read", location, e);
        }
    }

    public record StoredObject(byte[] bytes, String etag) {}

    /**
     * What a PUT is conditional on: nothing, no object under the key ({@code If-None-Match: *}), or the object with
     * this ETag ({@code If-Match}).
     */
    public sealed interface PutCondition
    {
        record None()
                implements PutCondition {}

        record Absent()
                implements PutCondition {}

        record Matches(String etag)
                implements PutCondition {}
    }

    /**
     * Writes an object, from a file or from bytes; S3 action names in errors are the IAM actions a policy grants.
     *
     * @return the new object's ETag, or empty when S3 answered 412: the condition did not hold
     */
    private Optional<String> write(S3Location location, RequestBody body, PutCondition condition, S3RequestStats stats)
    {
        PutObjectRequest.Builder request = PutObjectRequest.builder()
                .bucket(location.bucket())
                .key(location.key())
                .overrideConfiguration(override -> override.addMetricPublisher(new AttemptRecorder(stats, nodeStats)));
        switch (condition) {
            case PutCondition.None _ -> {}
            case PutCondition.Absent _ -> request.ifNoneMatch("*");
            case PutCondition.Matches(String etag) -> request.ifMatch(quoted(etag));
        }
        customerKey.ifPresent(key -> request
                .sseCustomerAlgorithm(key.algorithm())
                .sseCustomerKey(key.keyBase64())
                .sseCustomerKeyMD5(key.keyMd5Base64()));
        try {
            return Optional.of(stripQuotes(client.putObject(request.build(), body).eTag()));
        }
        catch (SdkException e) {
            if (e instanceof AwsServiceException service && (service.statusCode() == 412 || service.statusCode() == 409)) {
                // 409 ConditionalRequestConflict: another conditional PUT of the key was in flight
                return Optional.empty();
            }
            if (e instanceof AwsServiceException service && service.statusCode() == 404 && condition instanceof PutCondition.Matches) {
                // AWS answers an If-Match on a key deleted since with 404, not 412: the condition did not hold either
                return Optional.empty();
            }
            throw translateWrite("s3:PutObject", location, e);
        }
    }

    /**
     * Writes a local file: with one PUT, or, when larger than {@code partSize}, as a multipart upload of parts of
     * that size (a single PUT takes at most 5 GB), unconditionally. An upload that fails is aborted.
     */
    public Optional<String> write(S3Location location, Path file, PutCondition condition, long partSize, S3RequestStats stats)
    {
        long size;
        try {
            size = Files.size(file);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (size <= partSize) {
            return write(location, RequestBody.fromFile(file), condition, stats);
        }
        if (!(condition instanceof PutCondition.None)) {
            throw new IllegalArgumentException("a multipart upload here is unconditional");
        }
        return Optional.of(writeMultipart(location, file, size, partSize, stats));
    }

    private String writeMultipart(S3Location location, Path file, long size, long partSize, S3RequestStats stats)
    {
        CreateMultipartUploadRequest.Builder create = CreateMultipartUploadRequest.builder()
                .bucket(location.bucket())
                .key(location.key())
                .overrideConfiguration(override -> override.addMetricPublisher(new AttemptRecorder(stats, nodeStats)));
        customerKey.ifPresent(key -> create
                .sseCustomerAlgorithm(key.algorithm())
                .sseCustomerKey(key.keyBase64())
                .sseCustomerKeyMD5(key.keyMd5Base64()));
        String uploadId;
        try {
            uploadId = client.createMultipartUpload(create.build()).uploadId();
        }
        catch (SdkException e) {
            throw translateWrite("s3:PutObject", location, e);
        }
        try {
            List<CompletedPart> parts = new ArrayList<>();
            for (Part part : parts(size, partSize)) {
                UploadPartRequest.Builder upload = UploadPartRequest.builder()
                        .bucket(location.bucket())
                        .key(location.key())
                        .uploadId(uploadId)
                        .partNumber(part.number())
                        .overrideConfiguration(override -> override.addMetricPublisher(new AttemptRecorder(stats, nodeStats)));
                customerKey.ifPresent(key -> upload
                        .sseCustomerAlgorithm(key.algorithm())
                        .sseCustomerKey(key.keyBase64())
                        .sseCustomerKeyMD5(key.keyMd5Base64()));
                // streamed from the file (again on each retry): a part never sits in memory whole
                RequestBody body = RequestBody.fromContentProvider(() -> part.open(file), part.length(), "application/octet-stream");
                String etag = client.uploadPart(upload.build(), body).eTag();
                parts.add(CompletedPart.builder().partNumber(part.number()).eTag(etag).build());
            }
            return stripQuotes(client.completeMultipartUpload(request -> request
                    .bucket(location.bucket())
                    .key(location.key())
                    .uploadId(uploadId)
                    .multipartUpload(upload -> upload.parts(parts))).eTag());
        }
        catch (SdkException e) {
            abort(location, uploadId);
            throw translateWrite("s3:PutObject", location, e);
        }
        catch (RuntimeException e) {
            abort(location, uploadId);
            throw e;
        }
    }

    /**
     * One part of a multipart upload: {@code length} bytes of the file from {@code offset}.
     */
    record Part(int number, long offset, long length)
    {
        InputStream open(Path file)
        {
            try {
                FileChannel channel = FileChannel.open(file);
                channel.position(offset);
                return ByteStreams.limit(Channels.newInputStream(channel), length);
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    static List<Part> parts(long size, long partSize)
    {
        List<Part> parts = new ArrayList<>();
        int number = 1;
        for (long offset = 0; offset < size; offset += partSize, number++) {
            parts.add(new Part(number, offset, Math.min(partSize, size - offset)));
        }
        return parts;
    }

    private void abort(S3Location location, String uploadId)
    {
        try {
            client.abortMultipartUpload(request -> request.bucket(location.bucket()).key(location.key()).uploadId(uploadId));
        }
        catch (SdkException e) {
            // the bucket's lifecycle rule for incomplete uploads (or the next try) cleans it up
        }
    }

    public Optional<String> write(S3Location location, byte[] bytes, PutCondition condition, S3RequestStats stats)
    {
        return write(location, RequestBody.fromBytes(bytes), condition, stats);
    }

    public void delete(S3Location location, S3RequestStats stats)
    {
        DeleteObjectRequest request = DeleteObjectRequest.builder()
                .bucket(location.bucket())
                .key(location.key())
                .overrideConfiguration(override -> override.addMetricPublisher(new AttemptRecorder(stats, nodeStats)))
                .build();
        try {
            client.deleteObject(request);
        }
        catch (SdkException e) {
            if (e instanceof NoSuchKeyException || (e instanceof AwsServiceException service && service.statusCode() == 404 && !"NoSuchBucket".equals(errorCode(service)))) {
                return;
            }
            throw translateWrite("s3:DeleteObject", location, e);
        }
    }

    private static TrinoException translateWrite(String action, S3Location location, SdkException e)
    {
        if (e instanceof AwsServiceException service && service.statusCode() == 403) {
            return new TrinoException(PARQUET_BLOOM_S3_ACCESS_DENIED, "%s on %s was denied (%s): the catalog's S3 credentials need %s there".formatted(action, location, errorCode(service), action), e);
        }
        return translate(action.substring("s3:".length()), location, e);
    }

    public static TrinoException translate(String action, S3Location location, SdkException e)
    {
        if (e instanceof NoSuchBucketException) {
            return new TrinoException(PARQUET_BLOOM_BUCKET_NOT_FOUND, "Cannot %s %s: bucket %s does not exist".formatted(action, location, location.bucket()), e);
        }
        if (e instanceof NoSuchKeyException) {
            return new TrinoException(PARQUET_BLOOM_OBJECT_NOT_FOUND, "Cannot %s %s: object not found".formatted(action, location), e);
        }
        if (e instanceof AwsServiceException service && isSts(service)) {
            // the credentials for s3.iam-role could not be had: S3 was never asked
            return new TrinoException(PARQUET_BLOOM_S3_ACCESS_DENIED, "Cannot %s %s: STS refused to assume s3.iam-role: STS answered %s%s; check s3.iam-role, s3.external-id, s3.sts.endpoint and the role's trust policy".formatted(action, location, answer(service), attempts(e)), e);
        }
        if (e instanceof AwsServiceException service) {
            String code = errorCode(service);
            int status = service.statusCode();
            if (status == 403) {
                return new TrinoException(PARQUET_BLOOM_S3_ACCESS_DENIED, "Access denied to %s (%s): check the catalog's S3 credentials (s3.aws-access-key and s3.aws-secret-key, s3.iam-role, or the default credential chain), s3.sse.* and the bucket policy".formatted(location, code), e);
            }
            if (status == 404 && "NoSuchBucket".equals(code)) {
                return new TrinoException(PARQUET_BLOOM_BUCKET_NOT_FOUND, "Cannot %s %s: bucket %s does not exist".formatted(action, location, location.bucket()), e);
            }
            if (status == 404) {
                return new TrinoException(PARQUET_BLOOM_OBJECT_NOT_FOUND, "Cannot %s %s: object not found".formatted(action, location), e);
            }
            if (status == 416) {
                return new TrinoException(PARQUET_BLOOM_BAD_DATA, "Cannot %s %s: range not satisfiable (object shorter than its metadata says)".formatted(action, location), e);
            }
            return new TrinoException(PARQUET_BLOOM_S3_ERROR, "Cannot %s %s: S3 answered %s%s".formatted(action, location, answer(service), attempts(e)), e);
        }
        return new TrinoException(PARQUET_BLOOM_S3_ERROR, "Cannot %s %s: %s%s".formatted(action, location, cause(e), attempts(e)), e);
    }

    /**
     * What went wrong below the SDK's summary ("Failed to read response."): the cut connection or the timeout.
     */
    private static String cause(SdkException e)
    {
        String message = firstNonNull(e.rawMessage(), e.getClass().getSimpleName());
        Throwable root = Throwables.getRootCause(e);
        if (root != e && root.getMessage() != null && !message.contains(root.getMessage())) {
            return "%s (%s: %s)".formatted(message, root.getClass().getSimpleName(), root.getMessage());
        }
        return message;
    }

    private static String attempts(SdkException e)
    {
        Integer attempts = e.numAttempts();
        return attempts == null || attempts <= 1 ? "" : " after %d attempts".formatted(attempts);
    }

    private static boolean isSts(AwsServiceException service)
    {
        return service.awsErrorDetails() != null && "sts".equalsIgnoreCase(service.awsErrorDetails().serviceName());
    }

    /**
     * Status, error code and S3's own explanation (which never echoes credentials).
     */
    private static String answer(AwsServiceException service)
    {
        StringBuilder answer = new StringBuilder().append(service.statusCode());
        String code = errorCode(service);
        if (code != null) {
            answer.append(' ').append(code);
        }
        String message = service.awsErrorDetails() == null ? null : service.awsErrorDetails().errorMessage();
        if (message != null && !message.isBlank()) {
            answer.append(" (").append(message).append(')');
        }
        return answer.toString();
    }

    private static String errorCode(AwsServiceException service)
    {
        return service.awsErrorDetails() != null ? service.awsErrorDetails().errorCode() : null;
    }

    private static String quoted(String etag)
    {
        return "\"" + etag + "\"";
    }

    private static String stripQuotes(String etag)
    {
        if (etag == null) {
            return "";
        }
        if (etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"")) {
            return etag.substring(1, etag.length() - 1);
        }
        return etag;
    }
}
