import re,sys,collections,json
log=sys.argv[1]
runs=collections.defaultdict(lambda: collections.Counter()); fails=collections.defaultdict(lambda: collections.Counter()); newf=collections.defaultdict(lambda: collections.Counter()); first=collections.defaultdict(lambda: collections.Counter()); firstfail=collections.defaultdict(lambda: collections.Counter())
pend=[]
for line in open(log):
    m=re.match(r'arm (\d+) .*\[(\w+)\] new=(\d+) fail=(\w+)',line)
    if m: pend.append((int(m[1]),m[2],int(m[3]),m[4]=='true')); continue
    m=re.match(r'\[\d+/\d+\] (R\d+) guided seed (\d+):',line)
    if m:
        r=m[1]
        for idx,arm,n,f in pend:
            runs[r][arm]+=1; fails[r][arm]+=f; newf[r][arm]+=n
            if idx<4: first[r][arm]+=1; firstfail[r][arm]+=f
        pend=[]
arms=['exlp','ln','lp','n1','b2','plain']
print('race  '+' '.join(a.rjust(13) for a in arms)+'   (fails/runs rate ; mean new features)')
tot=collections.Counter(); totr=collections.Counter(); totn=collections.Counter()
for r in sorted(runs):
    row=[]
    for a in arms:
        n=runs[r][a]; f=fails[r][a]
        tot[a]+=f; totr[a]+=n; totn[a]+=newf[r][a]
        row.append(('%d/%d=%.2f;%.1f'%(f,n,f/n if n else 0,newf[r][a]/n if n else 0)).rjust(13))
    print(r,' '.join(row))
print('all  ',' '.join(('%d/%d;%.1f'%(tot[a],totr[a],totn[a]/max(1,totr[a]))).rjust(13) for a in arms))
# Does the bandit's reward point at the arm that breaks the invariant? Per race, the Spearman rank
# correlation over the arms between the mean new features and the rate of breaking runs, and
# whether the arm with the most new features is the arm with the highest rate.
def rank(xs):
    s=sorted(range(len(xs)),key=lambda i:xs[i]); r=[0]*len(xs); i=0
    while i<len(s):
        j=i
        while j+1<len(s) and xs[s[j+1]]==xs[s[i]]: j+=1
        for k in range(i,j+1): r[s[k]]=(i+j)/2
        i=j+1
    return r
def spearman(a,b):
    ra,rb=rank(a),rank(b); n=len(a); ma=sum(ra)/n; mb=sum(rb)/n
    num=sum((x-ma)*(y-mb) for x,y in zip(ra,rb)); den=(sum((x-ma)**2 for x in ra)*sum((y-mb)**2 for y in rb))**.5
    return num/den if den else 0
cs=[]; agree=0
for r in sorted(runs):
    fr=[fails[r][a]/runs[r][a] if runs[r][a] else 0 for a in arms]; nf=[newf[r][a]/runs[r][a] if runs[r][a] else 0 for a in arms]
    cs.append(spearman(fr,nf))
    agree+= max(range(len(arms)),key=lambda i:nf[i])==max(range(len(arms)),key=lambda i:fr[i])
print('spearman(new features, breaking rate) over the arms, mean over races: %.2f; the arm with the most new features has the highest rate on %d of %d races'%(sum(cs)/len(cs),agree,len(cs)))
