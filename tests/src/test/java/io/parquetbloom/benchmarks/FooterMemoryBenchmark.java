package io.parquetbloom.benchmarks;

import io.parquetbloom.demo.DemoDataset;
import io.parquetbloom.metadata.CompactFooter;
import io.parquetbloom.metadata.FooterReader;
import io.parquetbloom.metadata.ParquetFileMetadata;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectInfo;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;

/**
 * {@code ./run bench footers [--files N]}: what the coordinator holds per cached footer, parsed (as it kept every
 * footer before issue 24) and compact (as planning keeps them now), measured as heap used after full GCs with N of
 * each held, for the benchmark's two file shapes; and the CPU a compact footer costs per use (parsed again for each
 * file a query plans), against the parse of the whole footer a cache miss costs.
 */
@Command(name = "./run bench footers", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Heap per cached footer, parsed and compact, and the CPU of parsing each")
public final class FooterMemoryBenchmark
        implements Callable<Integer>
{
    private static final PrintStream OUT = System.out;

    @Option(names = "--files", defaultValue = "10000", description = "footers held of each form (default: ${DEFAULT-VALUE})")
    private int files;

    @Option(names = "--work", defaultValue = "tests/target/footer-memory", description = "where the sample files are written (default: ${DEFAULT-VALUE})")
    private Path work;

    private record Shape(String name, DemoDataset.EventFileWriterFactory writer, DemoDataset.Scale scale) {}

    public static void main(String[] args)
    {
        System.exit(new CommandLine(new FooterMemoryBenchmark()).execute(args));
    }

    @Override
    public Integer call()
            throws Exception
    {
        List<Shape> shapes = List.of(
                new Shape("parquet-java, 8 row groups x 25,000 rows (bench bigtable)", DemoDataset.PARQUET_JAVA, new DemoDataset.Scale(1, 8, 25_000, 1_000_000)),
                new Shape("Trino writer, 1 row group x 500 rows (bench --files 10000)", new TrinoWriterEvents(), new DemoDataset.Scale(1, 1, 500, 1_000_000)));
        OUT.println("| file shape | footer bytes | parsed: heap per file | compact (device_id): heap per file | ratio | compact: weighed at | parse whole footer: us | expand compact: us |");
        OUT.println("|---|---|---|---|---|---|---|---|");
        for (Shape shape : shapes) {
            byte[] file = write(shape);
            S3ObjectInfo object = new S3ObjectInfo(S3Location.parse("s3://bucket/telemetry/events/year=2025/part-00000.parquet"), file.length, "\"0123456789abcdef0123456789abcdef\"");
            ParquetFileMetadata sample = FooterReader.parse(object, 0, file).retainOnlyFooter();
            byte[] footer = sample.tail();
            progress("%s: %,d-byte file, %,d-byte footer; holding %,d footers of each form".formatted(shape.name(), file.length, footer.length, files));
            long parsed = heapPerFile(() -> FooterReader.parse(object, object.size() - footer.length, footer.clone()));
            long compact = heapPerFile(() -> CompactFooter.of(FooterReader.parse(object, object.size() - footer.length, footer.clone()), Set.of("device_id")));
            CompactFooter oneCompact = CompactFooter.of(sample, Set.of("device_id"));
            double parseMicros = microsPerCall(() -> FooterReader.parse(object, object.size() - footer.length, footer).blocks().size());
            double expandMicros = microsPerCall(() -> oneCompact.expand(object).blocks().size());
            OUT.printf("| %s | %,d | %,d B | %,d B | %.1fx | %,d B | %.1f | %.1f |%n", shape.name(), footer.length, parsed, compact, parsed / (double) compact,
                    oneCompact.retainedBytes(), parseMicros, expandMicros);
        }
        return 0;
    }

    private byte[] write(Shape shape)
            throws IOException
    {
        Files.createDirectories(work);
        Path local = work.resolve("sample.parquet");
        Files.deleteIfExists(local);
        SplittableRandom random = new SplittableRandom(2026);
        try (DemoDataset.EventFileWriter writer = shape.writer().create(local, shape.scale())) {
            long rows = shape.scale().rows();
            for (long row = 0; row < rows; row++) {
                writer.write(new DemoDataset.Event(DemoDataset.deviceId(random.nextInt(shape.scale().devices())),
                        HexFormat.of().toHexDigits(random.nextLong()) + HexFormat.of().toHexDigits(random.nextLong()),
                        random.nextDouble(200, 250), 1_735_689_600_000_000L + row * 1_000_000L, "", ""));
            }
        }
        return Files.readAllBytes(local);
    }

    private interface Footer
    {
        Object read()
                throws IOException;
    }

    /**
     * Heap used after full GCs with {@code files} results of {@code footer} held, less the heap used before, per
     * result.
     */
    private long heapPerFile(Footer footer)
            throws IOException
    {
        Object[] held = new Object[files];
        long before = usedHeapAfterGc();
        for (int i = 0; i < files; i++) {
            held[i] = footer.read();
        }
        long after = usedHeapAfterGc();
        // keep them reachable until measured
        if (Arrays.stream(held).anyMatch(value -> value == null)) {
            throw new IllegalStateException("a footer was not read");
        }
        return (after - before) / files;
    }

    private static double microsPerCall(Footer call)
            throws IOException
    {
        // warm up, then time
        List<Object> sink = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            sink.add(call.read());
            sink.clear();
        }
        int calls = 50_000;
        long start = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            sink.add(call.read());
            sink.clear();
        }
        return (System.nanoTime() - start) / 1e3 / calls;
    }

    private static long usedHeapAfterGc()
    {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        Runtime runtime = Runtime.getRuntime();
        return runtime.totalMemory() - runtime.freeMemory();
    }

    private static void progress(String message)
    {
        System.err.println("[footers] " + message);
    }
}
