package io.parquetbloom.sbbf;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import static java.nio.ByteOrder.LITTLE_ENDIAN;

final class LittleEndian
{
    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, LITTLE_ENDIAN);

    private LittleEndian() {}

    static int[] toWords(byte[] bytes, int offset, int length)
    {
        int[] words = new int[length / Integer.BYTES];
        for (int i = 0; i < words.length; i++) {
            words[i] = (int) INT_LE.get(bytes, offset + i * Integer.BYTES);
        }
        return words;
    }

    static byte[] toBytes(int[] words)
    {
        byte[] bytes = new byte[words.length * Integer.BYTES];
        writeWords(words, bytes, 0);
        return bytes;
    }

    static void writeWords(int[] words, byte[] target, int offset)
    {
        for (int i = 0; i < words.length; i++) {
            INT_LE.set(target, offset + i * Integer.BYTES, words[i]);
        }
    }
}
