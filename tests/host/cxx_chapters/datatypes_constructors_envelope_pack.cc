// datatypes_constructors_envelope_pack.cc: MPI-2.2 chapter 4 (datatypes) through the MPI::
// bindings (Annex A.4.2, A.4.16) on 4 ranks: every type constructor (Create_contiguous, _vector,
// _hvector, _indexed, _hindexed, _indexed_block, _struct, _subarray, _darray, _resized, Dup) with
// its Get_envelope combiner (MPI::COMBINER_*) and Get_contents, Get_size, Get_extent and
// Get_true_extent, names (Set_name, Get_name), a derived type on the wire with Status::
// Get_elements, Pack/Unpack, Pack_external/Unpack_external in "external32", Get_address, and the
// named pair types (MPI::TWOINT, FLOAT_INT, DOUBLE_INT, LONG_INT, SHORT_INT, LONG_DOUBLE_INT),
// and MPI-1's LB, UB and *_INTEGER combiners, which MPI-3.0 removed.
#include "chapter_out.h"

#include <sstream>

using chapter::all;
using chapter::combiner_name;
using chapter::ints;
using chapter::one;

// "COMBINER ni na nd size lb extent": the envelope and the layout of a datatype.
static std::string describe(const MPI::Datatype& t)
{
    int ni, na, nd, combiner;
    t.Get_envelope(ni, na, nd, combiner);
    MPI::Aint lb, extent, tlb, textent;
    t.Get_extent(lb, extent);
    t.Get_true_extent(tlb, textent);
    std::ostringstream s;
    s << combiner_name(combiner) << " ints " << ni << " addrs " << na << " types " << nd << " size "
      << t.Get_size() << " lb " << lb << " extent " << extent << " true " << tlb << "," << textent;
    return s.str();
}

// The integers of Get_contents, and whether every datatype it gives is `base`.
static std::string contents(const MPI::Datatype& t, const MPI::Datatype& base)
{
    int ni, na, nd, combiner;
    t.Get_envelope(ni, na, nd, combiner);
    int is[32];
    MPI::Aint as[8];
    MPI::Datatype ds[8];
    t.Get_contents(ni, na, nd, is, as, ds);  // the sizes the envelope gives, as legacy codes do
    std::ostringstream s;
    s << ints(is, ni);
    for (int i = 0; i < na; i++) s << (i ? "," : " addrs ") << as[i];
    bool same = true;
    for (int i = 0; i < nd; i++) {
        same = same && ds[i] == base;
        int di, da, dd, dc;
        ds[i].Get_envelope(di, da, dd, dc);
        if (dc != MPI::COMBINER_NAMED) ds[i].Free();
    }
    s << (same ? " of base" : " of other");
    return s.str();
}

int main(int argc, char** argv)
{
    MPI::Init(argc, argv);
    const MPI::Intracomm& world = MPI::COMM_WORLD;
    const int rank = world.Get_rank(), size = world.Get_size();
    one("ranks", size);
    one("named INT", describe(MPI::INT));

    MPI::Datatype contig = MPI::INT.Create_contiguous(3);
    one("contiguous", describe(contig));
    one("contiguous contents", contents(contig, MPI::INT));
    MPI::Datatype vec = MPI::INT.Create_vector(3, 2, 4);
    one("vector", describe(vec));
    one("vector contents", contents(vec, MPI::INT));
    MPI::Datatype hvec = MPI::DOUBLE.Create_hvector(2, 1, 24);
    one("hvector", describe(hvec));
    one("hvector contents", contents(hvec, MPI::DOUBLE));
    int blens[3] = {2, 1, 3}, disps[3] = {5, 0, 10};
    MPI::Datatype idx = MPI::INT.Create_indexed(3, blens, disps);
    one("indexed", describe(idx));
    one("indexed contents", contents(idx, MPI::INT));
    MPI::Aint hdisps[2] = {16, 0};
    MPI::Datatype hidx = MPI::SHORT.Create_hindexed(2, blens, hdisps);
    one("hindexed", describe(hidx));
    one("hindexed contents", contents(hidx, MPI::SHORT));
    int bdisps[3] = {6, 0, 3};
    MPI::Datatype iblock = MPI::INT.Create_indexed_block(3, 2, bdisps);
    one("indexed_block", describe(iblock));
    one("indexed_block contents", contents(iblock, MPI::INT));
    {
        struct rec { char c; double d; int i[2]; } r;
        int sblens[3] = {1, 1, 2};
        MPI::Aint base = MPI::Get_address(&r);
        MPI::Aint sdisps[3] = {MPI::Get_address(&r.c) - base, MPI::Get_address(&r.d) - base,
                               MPI::Get_address(&r.i) - base};
        MPI::Datatype stypes[3] = {MPI::CHAR, MPI::DOUBLE, MPI::INT};
        MPI::Datatype st = MPI::Datatype::Create_struct(3, sblens, sdisps, stypes);
        one("struct", describe(st));
        int ni, na, nd, c;
        st.Get_envelope(ni, na, nd, c);
        int is[8];
        MPI::Aint as[8];
        MPI::Datatype ds[8];
        st.Get_contents(ni, na, nd, is, as, ds);
        std::ostringstream s;
        s << ints(is, ni) << " addrs " << as[0] << "," << as[1] << "," << as[2] << " types "
          << (ds[0] == MPI::CHAR) << (ds[1] == MPI::DOUBLE) << (ds[2] == MPI::INT);
        one("struct contents", s.str());
        MPI::Datatype resized = st.Create_resized(0, sizeof r);
        one("resized", describe(resized));
        resized.Free();
        st.Free();
    }
    {
        int sizes[2] = {4, 6}, subsizes[2] = {2, 3}, starts[2] = {1, 2};
        MPI::Datatype sub = MPI::INT.Create_subarray(2, sizes, subsizes, starts, MPI::ORDER_C);
        one("subarray", describe(sub));
        one("subarray contents", contents(sub, MPI::INT));
        MPI::Datatype subf = MPI::INT.Create_subarray(2, sizes, subsizes, starts, MPI::ORDER_FORTRAN);
        one("subarray fortran order", describe(subf));
        subf.Free();
        sub.Free();
        // An 8x8 array of ints block-distributed over a 2x2 process grid: this rank's 4x4 block.
        int gsizes[2] = {8, 8}, distribs[2] = {MPI::DISTRIBUTE_BLOCK, MPI::DISTRIBUTE_BLOCK},
            dargs[2] = {MPI::DISTRIBUTE_DFLT_DARG, MPI::DISTRIBUTE_DFLT_DARG}, psizes[2] = {2, 2};
        MPI::Datatype dar = MPI::INT.Create_darray(size, rank, 2, gsizes, distribs, dargs, psizes,
                                                   MPI::ORDER_C);
        int ni, na, nd, c;
        dar.Get_envelope(ni, na, nd, c);
        MPI::Aint lb, ext, tlb, text;
        dar.Get_extent(lb, ext);
        dar.Get_true_extent(tlb, text);
        std::ostringstream s;
        s << combiner_name(c) << " size " << dar.Get_size() << " extent " << ext << " true " << tlb
          << "," << text;
        all("darray", s.str());
        dar.Free();
    }
    {
        MPI::Datatype dup = vec.Dup();
        one("dup", describe(dup));
        int is[1];
        MPI::Aint as[1];
        MPI::Datatype ds[1];
        dup.Get_contents(0, 0, 1, is, as, ds);
        int ni, na, nd, c;
        ds[0].Get_envelope(ni, na, nd, c);
        one("dup contents", combiner_name(c));
        ds[0].Free();
        dup.Free();
    }

    // Names: a predefined type's, and one set on a derived type.
    {
        char name[MPI::MAX_OBJECT_NAME];
        int len = -1;
        vec.Set_name("three pairs");
        vec.Get_name(name, len);
        one("set_name get_name", std::string(name) + " (" + std::to_string(len) + ")");
        MPI::Datatype d = vec.Dup();
        d.Get_name(name, len);
        one("dup's name", std::string("[") + name + "] " + std::to_string(len));
        d.Free();
        MPI::INT.Get_name(name, len);
        one("INT name", name);
        MPI::DOUBLE_INT.Get_name(name, len);
        one("DOUBLE_INT name", name);
    }

    // A vector on the wire: rank r sends columns to rank r+1, received contiguously.
    {
        vec.Commit();
        int src[12], dst[6] = {-1, -1, -1, -1, -1, -1};
        for (int i = 0; i < 12; i++) src[i] = 100 * rank + i;
        MPI::Status st;
        world.Sendrecv(src, 1, vec, (rank + 1) % size, 1, dst, 6, MPI::INT, (rank + size - 1) % size,
                       1, st);
        all("vector received", dst[0] * 10000 + dst[2] * 100 + dst[5]);
        all("received elements as INT", st.Get_elements(MPI::INT));
        all("received count as vector", st.Get_count(vec) == MPI::UNDEFINED ? -1 : st.Get_count(vec));
        world.Sendrecv(src, 6, MPI::INT, (rank + 1) % size, 2, dst, 1, vec, (rank + size - 1) % size,
                       2, st);
        all("received elements of the vector", st.Get_elements(vec));
        all("received count of the vector", st.Get_count(vec));
    }

    // Pack and Unpack; Pack_external and Unpack_external in external32 (big-endian).
    {
        int nums[3] = {1, 256, -2};
        double x = 1.5;
        char buf[256];
        int pos = 0, psize = MPI::INT.Pack_size(3, world) + MPI::DOUBLE.Pack_size(1, world);
        MPI::INT.Pack(nums, 3, buf, sizeof buf, pos, world);
        MPI::DOUBLE.Pack(&x, 1, buf, sizeof buf, pos, world);
        one("pack position within pack_size", pos <= psize && pos >= 20);
        int back[3] = {0, 0, 0};
        double y = 0;
        int upos = 0;
        MPI::INT.Unpack(buf, pos, back, 3, upos, world);
        MPI::DOUBLE.Unpack(buf, pos, &y, 1, upos, world);
        one("unpack", ints(back, 3) + " " + std::to_string(y) + " at " + std::to_string(upos == pos));
        unsigned char ext[64];
        MPI::Aint epos = 0;
        MPI::INT.Pack_external("external32", nums, 3, ext, sizeof ext, epos);
        one("pack_external position", (long)epos);
        one("pack_external_size", (long)MPI::INT.Pack_external_size("external32", 3));
        std::ostringstream bytes;
        for (int i = 0; i < 8; i++) bytes << (i ? " " : "") << (int)ext[i];
        one("pack_external bytes", bytes.str());
        int eback[3] = {0, 0, 0};
        MPI::Aint eupos = 0;
        MPI::INT.Unpack_external("external32", ext, epos, eupos, eback, 3);
        one("unpack_external", ints(eback, 3));
    }

    // The named pair types of MINLOC/MAXLOC and their layout.
    {
        std::ostringstream s;
        s << "TWOINT " << MPI::TWOINT.Get_size() << " FLOAT_INT " << MPI::FLOAT_INT.Get_size()
          << " DOUBLE_INT " << MPI::DOUBLE_INT.Get_size() << " LONG_INT " << MPI::LONG_INT.Get_size()
          << " SHORT_INT " << MPI::SHORT_INT.Get_size();
        one("pair type sizes", s.str());
        MPI::Aint lb, ext;
        MPI::LONG_DOUBLE_INT.Get_extent(lb, ext);
        struct ldi { long double v; int i; };
        one("LONG_DOUBLE_INT extent is the struct's", ext == (MPI::Aint)sizeof(ldi));
        struct { double v; int i; } mine = {(double)((rank * 5) % 4), rank}, best;
        world.Allreduce(&mine, &best, 1, MPI::DOUBLE_INT, MPI::MAXLOC);
        all("DOUBLE_INT maxloc", (int)best.v * 10 + best.i);
        struct { short v; int i; } sm = {(short)(rank % 2), rank}, sbest;
        world.Allreduce(&sm, &sbest, 1, MPI::SHORT_INT, MPI::MINLOC);
        all("SHORT_INT minloc", sbest.v * 10 + sbest.i);
        int ni, na, nd, c;
        MPI::TWOINT.Get_envelope(ni, na, nd, c);
        one("named pair envelope", combiner_name(c));
        std::ostringstream t;
        t << MPI::BOOL.Get_size() << " " << MPI::COMPLEX.Get_size() << " "
          << MPI::DOUBLE_COMPLEX.Get_size();
        one("BOOL COMPLEX DOUBLE_COMPLEX sizes", t.str());
    }

    // MPI-1's LB and UB markers and the *_INTEGER combiners, which MPI-2.2 still has (§4.1.6,
    // §4.1.13; MPI-3.0 removed them) and legacy codes use, and the optional INTEGER16 where the
    // host has it.
    {
#if defined(OPEN_MPI) && !defined(MPIATTR_OVER_HOST)
        // Open MPI 4.1's own bindings declare MPI::LB and MPI::UB but do not define them
        // (divergences.toml).
        one("struct with LB and UB markers", "does not compile");
        one("LB UB names", "does not compile");
#else
        int bl[3] = {1, 1, 1};
        MPI::Aint d[3] = {-8, 0, 24};
        MPI::Datatype ts[3] = {MPI::LB, MPI::INT, MPI::UB};
        MPI::Datatype marked = MPI::Datatype::Create_struct(3, bl, d, ts);
        MPI::Aint lb, ext;
        marked.Get_extent(lb, ext);
        std::ostringstream s;
        s << "lb " << lb << " extent " << ext << " size " << marked.Get_size();
        one("struct with LB and UB markers", s.str());
        marked.Free();
        char lbname[MPI::MAX_OBJECT_NAME], ubname[MPI::MAX_OBJECT_NAME];
        int len = -1;
        MPI::LB.Get_name(lbname, len);
        MPI::UB.Get_name(ubname, len);
        one("LB UB names", std::string(lbname) + " " + ubname);
#endif
        int removed[3] = {MPI::COMBINER_HVECTOR_INTEGER, MPI::COMBINER_HINDEXED_INTEGER,
                          MPI::COMBINER_STRUCT_INTEGER};
        one("combiners HVECTOR_INTEGER HINDEXED_INTEGER STRUCT_INTEGER", ints(removed, 3));
        one("integer combiners differ from the MPI-2 ones",
            removed[0] != MPI::COMBINER_HVECTOR && removed[1] != MPI::COMBINER_HINDEXED &&
                removed[2] != MPI::COMBINER_STRUCT);
#if defined(MPI_INTEGER16)
        one("INTEGER16", MPI::INTEGER16 == MPI::DATATYPE_NULL ? std::string("DATATYPE_NULL")
                                                              : std::to_string(MPI::INTEGER16.Get_size()));
#else
        one("INTEGER16", "not defined by the host");
#endif
    }

    contig.Free();
    vec.Free();
    hvec.Free();
    idx.Free();
    hidx.Free();
    iblock.Free();
    one("freed type is DATATYPE_NULL", contig == MPI::DATATYPE_NULL);
    world.Barrier();
    MPI::Finalize();
    return 0;
}
